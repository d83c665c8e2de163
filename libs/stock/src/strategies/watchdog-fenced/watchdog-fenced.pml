/*
 * watchdog-fenced (watchdog-fenced.strategy.ts): the watchdog lock with its grants numbered (grant-fence.ts)
 * around the fenced Redis stock (redis/fenced-stock.ts). The model is the watchdog's, with FENCED 1: see
 * libs/locks/src/watchdog/watchdog.pml for the mapping of its labels, its bounds and what it cannot express.
 * Faults: a stop-the-world at stock-read (the gc-pause-past-the-lease preset's fix): the lock lets B in
 * while A is stopped, but A's token is below B's and the stock refuses A's write: nothing sold twice.
 * A failover at lock-acquired (the master-failover preset, where watchdog-fenced is no fix): the counter
 * is lost with the master, B is given A's token again, the stock takes an equal token and both sell.
 * A clock jump at lock-acquired (the redlock-clock-jump preset's fix, watchdog-fenced-mysql, whose row
 * fences as this stock does; the holding it also records matters only for an equal token, which a jump
 * never gives): the store expires A's key under it, B is granted the lock with a higher token, and A's
 * write is refused: nothing sold twice, whichever clock jumped.
 */
#define FENCED 1
#include "../../../../locks/src/watchdog/watchdog.pml"
