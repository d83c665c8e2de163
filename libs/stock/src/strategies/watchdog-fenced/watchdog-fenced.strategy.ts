import { WATCHDOG_FENCE, WATCHDOG_SCRIPTS, WatchdogLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

/** The fenced watchdog around the fenced Redis stock: the stale holder's write is refused by the stock itself. */
export const watchdogFenced = lockedRedisStock('watchdog-fenced', luaScriptsOf(...WATCHDOG_SCRIPTS, WATCHDOG_FENCE, ...FENCED_STOCK_SCRIPTS), (deps) => new WatchdogLock(deps.lockRedis, deps.lockSubscriber, { fenced: true }));
