/**
 * The servers a lock may need besides Redis and MariaDB. Each is started by
 * `infra/scripts/ensure-<service>.sh start [--owner PID]`, which prints the value of `env`; the launcher
 * and the stock tests start those the strategies' catalogue entries name (`needs`), and the service
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
