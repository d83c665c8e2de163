import { LOCK_SERVICES, type LockService } from '@oversell/contracts';
import type { ConnectedLock, SqlClient } from '@oversell/locks';
import Redis from 'ioredis';
import { createConnection, createPool, type Pool } from 'mysql2/promise';

/** The connections one process hands to the lock under test: every lock factory takes what it needs. */
export interface LockClients {
  redis: Redis;
  /** A connection of its own for locks whose waiters listen for release messages (subscriber mode). */
  subscriber: Redis;
  /** For the MySQL lock table; it opens connections only when a lock first queries. */
  mysql: Pool;
  /**
   * A lock on a lock service, connected by its folder's `connect…()` to the server the bench started
   * (its variable, LOCK_SERVICES[service].env), and closed with the clients.
   */
  onService(service: LockService, connect: (endpoint: string) => ConnectedLock): ConnectedLock['lock'];
}

/** The shared Redis, overridable like the service's. */
export function redisOptions() {
  return { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
}

/**
 * The shared MariaDB server, overridable like the service's; the bench keeps to a database of its own,
 * as the lab's own user (oversell / oversell-lab, made by infra/scripts/ensure-services.sh) by default.
 */
function mysqlServer() {
  return { host: process.env.MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.MYSQL_PORT ?? 3306), user: process.env.MYSQL_USER ?? 'oversell', password: process.env.MYSQL_PASSWORD ?? 'oversell-lab' };
}

export const MYSQL_DATABASE = process.env.MYSQL_LOCK_BENCH_DATABASE ?? 'oversell_lock_bench';

/** Creates the bench's database if it is missing; the caller creates the tables it needs in it. */
export async function openBenchDatabase(): Promise<Pool> {
  const connection = await createConnection(mysqlServer());
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${MYSQL_DATABASE}\``);
  } finally {
    await connection.end();
  }
  return createPool({ ...mysqlServer(), database: MYSQL_DATABASE });
}

/**
 * Both Redis connections ready before any lock sees them: a SUBSCRIBE sent while ioredis is still in
 * its ready check (INFO) puts the connection in subscriber mode under it, and the check fails.
 */
export async function connectClients(): Promise<LockClients & { close(): Promise<void> }> {
  const redis = new Redis({ ...redisOptions(), lazyConnect: true });
  const subscriber = new Redis({ ...redisOptions(), lazyConnect: true });
  const mysql = createPool({ ...mysqlServer(), database: MYSQL_DATABASE });
  const connected: ConnectedLock[] = [];
  await Promise.all([redis.connect(), subscriber.connect()]);
  return {
    redis,
    subscriber,
    mysql,
    onService(service, connect) {
      const endpoint = process.env[LOCK_SERVICES[service].env];
      if (!endpoint) throw new Error(`${LOCK_SERVICES[service].env} is not set: the bench starts ${LOCK_SERVICES[service].title} for the locks that need it`);
      const lock = connect(endpoint);
      connected.push(lock);
      return lock.lock;
    },
    close: async () => {
      await Promise.all([redis.quit(), subscriber.quit(), mysql.end(), ...connected.map((lock) => lock.close())]);
    },
  };
}

/** A mysql2 pool as the lock table takes it: the result alone, without mysql2's field list. */
export const sqlClient = (pool: Pool): SqlClient => ({ query: (sql, params) => pool.query(sql, params).then(([result]) => result) });
