import { MYSQL_GET_LOCK_SQL, mysqlNamedLock } from '@oversell/locks';
import { createPool } from 'mysql2/promise';
import type { MysqlConnectionOptions } from 'typeorm/driver/mysql/MysqlConnectionOptions';
import { LOCKED_MYSQL_STOCK_SQL, lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { sqlScriptsOf } from '../../compose/scripts-of';

/**
 * The orders of one process that wait inside GET_LOCK at once, each on a connection of its own; the
 * others queue in the pool for one. Keeps a process's share of the server's max_connections (151 by
 * default) small beside its stock pool, while the lock still passes from holder to waiter at the server.
 */
const LOCK_SESSIONS = 10;

/**
 * MySQL's named lock around the MySQL stock row, on a pool of its own on the same server as the stock:
 * waiters hold their connections for their whole wait, and must not starve the holder's write of one.
 */
export const mysqlGetLock = lockedMysqlStock('mysql-get-lock', sqlScriptsOf(...MYSQL_GET_LOCK_SQL, ...LOCKED_MYSQL_STOCK_SQL), (deps) => {
  const { host, port, username, password } = deps.dataSource.options as MysqlConnectionOptions;
  const pool = createPool({ host, port, user: username, password, connectionLimit: LOCK_SESSIONS });
  deps.onShutdown(() => pool.end());
  return mysqlNamedLock(pool);
});
