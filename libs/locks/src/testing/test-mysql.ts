import { createConnection, createPool, type Pool } from 'mysql2/promise';
import { CREATE_LOCK_TABLE } from '../db-lock-table/db-lock-table.lock';
import type { SqlClient } from '../sql-client';
import { freshKeyPrefix } from './test-redis';

/** The real MariaDB server the lock tests talk to: the local one by default, overridable like the service's. */
export function testMysqlServer() {
  return {
    host: process.env.MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.MYSQL_PORT ?? 3306),
    // The lab's own user (infra/scripts/ensure-services.sh creates it), as the service's defaults.
    user: process.env.MYSQL_USER ?? 'oversell',
    password: process.env.MYSQL_PASSWORD ?? 'oversell-lab',
  };
}

/**
 * The lock tests' own database: the stock library's tests create their `locks` table by migration in
 * theirs, and the two never race to create the same table.
 */
const LOCKS_TEST_DATABASE = process.env.MYSQL_LOCKS_TEST_DATABASE ?? 'oversell_locks_test';

export interface TestLockTable {
  /** The pool as a lock takes it. */
  readonly client: SqlClient;
  /** A lock name no other test (or earlier run) uses. */
  freshName(): string;
}

/**
 * A lock table for one test file (beforeAll): the database and the table are created if absent, every
 * name carries the file's own prefix, and its rows are deleted afterwards (afterAll).
 */
export function useTestLockTable(): TestLockTable {
  const prefix = freshKeyPrefix();
  let pool: Pool | undefined;
  let names = 0;
  beforeAll(async () => {
    const connection = await createConnection(testMysqlServer());
    try {
      await connection.query(`CREATE DATABASE IF NOT EXISTS \`${LOCKS_TEST_DATABASE}\``);
    } finally {
      await connection.end();
    }
    pool = createPool({ ...testMysqlServer(), database: LOCKS_TEST_DATABASE });
    await pool.query(CREATE_LOCK_TABLE.sql);
  });
  afterAll(async () => {
    if (!pool) return;
    await pool.query('DELETE FROM locks WHERE name LIKE ?', [`${prefix}:%`]);
    await pool.end();
  });
  return {
    client: { query: (sql, params) => opened().query(sql, params).then(([result]) => result) },
    freshName: () => `${prefix}:lock:${++names}`,
  };

  function opened(): Pool {
    if (!pool) throw new Error('useTestLockTable: the table is opened in beforeAll; use it inside a test');
    return pool;
  }
}
