import type { LockChoice } from './choosing-a-lock';

/**
 * Every strategy the service can deduct stock with. The order is the order of the tables: the
 * articles' path from no lock through the hand-made Redis locks to the atomic and database ways.
 */
export const STRATEGY_NAMES = [
  'no-lock',
  'setnx-no-ttl',
  'setnx-expire',
  'naive-setnx',
  'setnx-getset',
  'uuid-check-del',
  'uuid-lua',
  'watchdog',
  'watchdog-fenced',
  'watchdog-fenced-mysql',
  'etcd',
  'zookeeper',
  'redlock',
  'redlock-lib',
  'redlock-delayed-restart',
  'segmented',
  'segmented-cluster',
  'decr-check',
  'lua-decrement',
  'db-lock-table',
  'db-lock-table-ttl',
  'db-optimistic',
  'db-pessimistic',
  'db-conditional',
] as const;

export type StrategyName = (typeof STRATEGY_NAMES)[number];

export function isStrategyName(value: unknown): value is StrategyName {
  return typeof value === 'string' && (STRATEGY_NAMES as readonly string[]).includes(value);
}

/** Where a strategy keeps the stock it deducts from. */
export type StockStore = 'redis' | 'mysql';

/** How a strategy keeps concurrent deductions apart. */
export type StrategyKind = 'none' | 'lock' | 'atomic' | 'database';

/** The run settings (besides stock and load) that a strategy can read. */
export type StrategySetting = 'lockTtlMs' | 'businessDelayMs' | 'segments';

/**
 * The lease, if any, on what keeps an order's deduction apart from the others:
 * - 'none': nothing held expires (no lock at all, one atomic step, a database transaction, a lock with no expiry);
 * - 'fixed': the lock expires lockTtlMs after it was taken, whatever its holder is still doing, so it
 *   keeps orders apart only while the work under it (the business delay included) is shorter than the TTL;
 * - 'renewed': the holder keeps extending the lease while it lives, so the length of the work does not matter.
 */
export type LockLease = 'none' | 'fixed' | 'renewed';

/**
 * The servers a lock may need besides Redis and MariaDB. Each is started by
 * `infra/scripts/ensure-<service>.sh start [--owner PID]`, which prints the value of `env`; the launcher
 * and the stock tests start those the strategies declare (StrategyDescription.needs), and the service
 * reads `env` to reach it.
 */
export const LOCK_SERVICES = {
  etcd: { title: 'etcd', env: 'ETCD_ENDPOINTS' },
  zookeeper: { title: 'ZooKeeper', env: 'ZOOKEEPER_CONNECT' },
  'redis-nodes': { title: 'five Redis nodes for RedLock', env: 'REDLOCK_NODES' },
  'redis-cluster': { title: 'a three-master Redis Cluster', env: 'REDIS_CLUSTER_NODES' },
  // No strategy needs it: the Redis locks move onto it when it is given, for the failover fault.
  'redis-sentinel': { title: 'a Redis master, its replica and three Sentinels', env: 'REDIS_SENTINELS' },
} as const satisfies Record<string, { title: string; env: string }>;

export type LockService = keyof typeof LOCK_SERVICES;

/** Where each lock service is, as its env variable says (the services not set are absent). */
export type LockServiceEndpoints = Partial<Record<LockService, string>>;

export function lockServiceEndpoints(env: Record<string, string | undefined>): LockServiceEndpoints {
  return Object.fromEntries(
    (Object.keys(LOCK_SERVICES) as LockService[]).filter((service) => env[LOCK_SERVICES[service].env]).map((service) => [service, env[LOCK_SERVICES[service].env]]),
  );
}

/** A script a strategy sends to its store, shown in the dashboard's explain view. */
export interface StrategyScript {
  name: string;
  language: 'lua' | 'sql';
  source: string;
}

export interface StrategyDescription {
  name: StrategyName;
  title: string;
  kind: StrategyKind;
  store: StockStore;
  /** The run settings this strategy reads: the run form shows and sends only those. */
  settings: StrategySetting[];
  /** Whether a business time longer than the lock TTL lets a second order in (see LockLease). */
  lease: LockLease;
  /**
   * True when the strategy is right to use on a healthy store: no business time makes it oversell
   * (nothing lets a second holder in while the first still works: a renewed lease, no lease, or a holder
   * that checks its lease before writing, as RedLock's does), and a holder that dies does not block it
   * for good. False for the fixed leases that lapse under a slow holder (naive-setnx, uuid-lua,
   * segmented, …: right only while the TTL covers the business time) and for the locks a dead holder
   * keeps for ever (setnx-no-ttl, db-lock-table). The dashboard's tag and the soak's list read it; a
   * pause of the whole process breaks some "safe" ones too (their pitfall says which).
   */
  safe: boolean;
  description: string;
  guarantee: string;
  pitfall: string;
  /** How to make the pitfall happen on demand (e.g. "business delay > lock TTL"). */
  reproduce: string;
  /** Where the behaviour shows on the dashboard: what the Explain view tells the audience to look at. */
  symptom: string;
  /** What the strategy does for one order, step by step. */
  steps: string[];
  scripts: StrategyScript[];
  /** The lock services it cannot run without (none: Redis and MariaDB only). */
  needs?: LockService[];
  /** Where it stands in "Choosing a lock" (docs/choosing-a-lock.md, the Explain view); absent: not compared there. */
  choice?: LockChoice;
  /**
   * 'slow' when a contended lock passes from one order to the next only a few times a second: its
   * waiters do not queue (as etcd's and ZooKeeper's do) but retry, and each retry of a quorum lock is a
   * round of writes on every node that splits the votes when it meets another's. A load sized for the
   * other locks outlasts the lock wait on it; the correctness suite sizes its load by this. Absent: 'fast'.
   */
  grantRate?: 'fast' | 'slow';
}
