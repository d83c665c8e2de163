import { connectRedisNodes, type SqlClient } from '@oversell/locks';
import { Etcd3 } from 'etcd3';
import Redis from 'ioredis';
import { createConnection, createPool, type Pool } from 'mysql2/promise';
import { createClient, type Client } from 'node-zookeeper-client';

/** The connections one process hands to the lock under test: every lock factory takes what it needs. */
export interface LockClients {
  redis: Redis;
  /** A connection of its own for locks whose waiters listen for release messages (subscriber mode). */
  subscriber: Redis;
  /** For the MySQL lock table; it opens connections only when a lock first queries. */
  mysql: Pool;
  /** For the etcd lock; it connects only when a lock first calls etcd. */
  etcd: Etcd3;
  /** For the ZooKeeper lock: a session of this process's, opened when first asked for. */
  zookeeper: LazyZookeeper;
  /** For RedLock: the independent Redis masters the bench started (REDLOCK_NODES); none when it did not. */
  redlockNodes: Redis[];
}

export interface LazyZookeeper {
  client(): Client;
  close(): void;
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

/** The etcd the bench started (runLockBench, when the etcd lock is selected), or etcd's default address. */
const etcdEndpoints = () => (process.env.ETCD_ENDPOINTS ?? 'http://127.0.0.1:2379').split(',');

/** The ZooKeeper the bench started (runLockBench, when the ZooKeeper lock is selected), or ZooKeeper's default address. */
const zookeeperConnect = () => process.env.ZOOKEEPER_CONNECT ?? '127.0.0.1:2181';

/** Unlike etcd3 and ioredis, node-zookeeper-client connects only when told to, and retries for good after. */
function lazyZookeeper(): LazyZookeeper {
  let client: Client | undefined;
  return {
    client: () => {
      if (!client) {
        client = createClient(zookeeperConnect());
        client.connect();
      }
      return client;
    },
    close: () => client?.close(),
  };
}

/**
 * A quarter of the bench's 2 s lease. redis.io wants it small next to the TTL, but the timeout runs on
 * the client's own event loop: with 50 workers a process on a loaded 2-core machine (load 22) answered
 * its timers late, and at 200 ms 41 acquires of a 5 s run saw no node answer in time (lock_unavailable)
 * while the nodes were fine. The time it takes still comes off the validity.
 */
const REDLOCK_NODE_TIMEOUT_MS = 500;

/** The RedLock nodes the bench started (runLockBench, when a RedLock is selected). */
const redlockNodes = () => (process.env.REDLOCK_NODES ? process.env.REDLOCK_NODES.split(',') : []);

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
 * `autoPipelining`: ioredis sends the commands of one event-loop turn in one write (enableAutoPipelining),
 * on the connection the locks and the sections share, for every lock alike.
 */
export async function connectClients(autoPipelining = false): Promise<LockClients> {
  const clients = {
    redis: new Redis({ ...redisOptions(), lazyConnect: true, enableAutoPipelining: autoPipelining }),
    subscriber: new Redis({ ...redisOptions(), lazyConnect: true }),
    mysql: createPool({ ...mysqlServer(), database: MYSQL_DATABASE }),
    etcd: new Etcd3({ hosts: etcdEndpoints() }),
    zookeeper: lazyZookeeper(),
    redlockNodes: await connectRedisNodes(redlockNodes(), REDLOCK_NODE_TIMEOUT_MS),
  };
  await Promise.all([clients.redis.connect(), clients.subscriber.connect()]);
  return clients;
}

export async function closeClients(clients: LockClients): Promise<void> {
  clients.etcd.close();
  clients.zookeeper.close();
  await Promise.all([clients.redis.quit(), clients.subscriber.quit(), clients.mysql.end(), ...clients.redlockNodes.map((node) => node.quit())]);
}

/** A mysql2 pool as the lock table takes it: the result alone, without mysql2's field list. */
export const sqlClient = (pool: Pool): SqlClient => ({ query: (sql, params) => pool.query(sql, params).then(([result]) => result) });
