import { DB_LOCK_TABLE_SQL, dbLockTableLock } from '@oversell/locks';
import { LOCKED_MYSQL_STOCK_SQL, lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { sqlScriptsOf } from '../../compose/scripts-of';

/** The lock table's expiring row (lease by the database clock) around the MySQL stock row. */
export const dbLockTableTtl = lockedMysqlStock('db-lock-table-ttl', sqlScriptsOf(...DB_LOCK_TABLE_SQL.expiring, ...LOCKED_MYSQL_STOCK_SQL), (deps) => dbLockTableLock(deps.dataSource, 'expiring'));
