-- Ends a session (its connection id): the server lets go of every named lock it held.
KILL CONNECTION ?
