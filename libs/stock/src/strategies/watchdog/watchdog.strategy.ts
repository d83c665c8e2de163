import { WATCHDOG_SCRIPTS, WatchdogLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';

/**
 * Redisson's watchdog lock around the Redis stock read-check-write. If a renewal fails, the holding's
 * signal fires and the section writes nothing (lock_lost).
 */
export const watchdog = lockedRedisStock('watchdog', luaScriptsOf(...WATCHDOG_SCRIPTS), (deps) => new WatchdogLock(deps.lockRedis, deps.lockSubscriber));
