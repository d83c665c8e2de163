-- The connection id of the session that holds the name; NULL while no session does.
SELECT IS_USED_LOCK(?) AS holder
