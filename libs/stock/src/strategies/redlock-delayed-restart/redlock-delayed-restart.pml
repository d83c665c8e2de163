/*
 * redlock-delayed-restart (redlock-delayed-restart.strategy.ts and the lock of the same name): RedLock whose
 * restarted nodes sit out one lease (redis.io's "delayed restarts"). The model is redlock's with
 * DELAYED_RESTART 1: see libs/locks/src/redlock/redlock.pml for the mapping of its labels, its bounds and
 * what it cannot express.
 * Faults: node-restart at lock-acquired (the redlock-node-restart preset's fix): the restarted node is not
 * asked, B wins 2 of 5 and waits for A's release: nothing sold twice.
 */
#define DELAYED_RESTART 1
#include "../../../../locks/src/redlock/redlock.pml"
