import { DB_LOCK_TABLE_SQL, dbLockTableLock } from '@oversell/locks';
import { LOCKED_MYSQL_STOCK_SQL, lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { sqlScriptsOf } from '../../compose/scripts-of';

/** The lock table's owner row (no expiry) around the MySQL stock row. */
export const dbLockTable = lockedMysqlStock('db-lock-table', sqlScriptsOf(...DB_LOCK_TABLE_SQL.owner, ...LOCKED_MYSQL_STOCK_SQL), (deps) => dbLockTableLock(deps.dataSource, 'owner'));
