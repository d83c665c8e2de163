import { WATCHDOG_FENCE, WATCHDOG_SCRIPTS, WatchdogLock } from '@oversell/locks';
import { lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { READ_STOCK } from '../../compose/mysql-stock-row';
import { MYSQL_STOCK_FENCE_SQL } from '../../compose/mysql-stock-fence';
import { luaScriptsOf, sqlScriptsOf } from '../../compose/scripts-of';

/** The fenced watchdog around the fenced MySQL stock row: the row itself refuses a stale holder's write. */
export const watchdogFencedMysql = lockedMysqlStock('watchdog-fenced-mysql', [...luaScriptsOf(...WATCHDOG_SCRIPTS, WATCHDOG_FENCE), ...sqlScriptsOf(READ_STOCK, ...MYSQL_STOCK_FENCE_SQL)], (deps) => new WatchdogLock(deps.lockRedis, deps.lockSubscriber, { fenced: true }));
