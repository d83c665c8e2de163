/**
 * The servers a lock may need besides Redis and MariaDB. Each is started by
 * `infra/scripts/ensure-<service>.sh start [--owner PID]`, which prints the value of `env`; the launcher
 * and the stock tests start those the strategies' catalogue entries name (`needs`), and the service
 * reads `env` to reach it.
 */
/** How a lock service's variable writes its servers, comma-separated: the pattern, and how to say it. */
export const ADDRESS_FORMATS = {
  urls: { pattern: /^https?:\/\/[\w.-]+:\d+(,https?:\/\/[\w.-]+:\d+)*$/, written: 'http://host:port[,http://host:port…]' },
  'host-ports': { pattern: /^[\w.-]+:\d+(,[\w.-]+:\d+)*$/, written: 'host:port[,host:port…]' },
} as const;

export const LOCK_SERVICES = {
  etcd: { title: 'etcd', env: 'ETCD_ENDPOINTS', address: 'urls', addressIs: 'etcd client URLs' },
  zookeeper: { title: 'ZooKeeper', env: 'ZOOKEEPER_CONNECT', address: 'host-ports', addressIs: 'a ZooKeeper connect string' },
  'redis-nodes': { title: 'five Redis nodes for RedLock', env: 'REDLOCK_NODES', address: 'host-ports', addressIs: "the RedLock nodes' addresses" },
  'redis-cluster': { title: 'a three-master Redis Cluster', env: 'REDIS_CLUSTER_NODES', address: 'host-ports', addressIs: 'Redis Cluster nodes' },
  // No strategy needs it: the Redis locks move onto it when it is given, for the failover fault.
  'redis-sentinel': { title: 'a Redis master, its replica and three Sentinels', env: 'REDIS_SENTINELS', address: 'host-ports', addressIs: "the Sentinels' addresses" },
} as const satisfies Record<string, { title: string; env: string; address: keyof typeof ADDRESS_FORMATS; addressIs: string }>;

export type LockService = keyof typeof LOCK_SERVICES;

/** Where each lock service is, as its env variable says (the services not set are absent). */
export type LockServiceEndpoints = Partial<Record<LockService, string>>;

export function lockServiceEndpoints(env: Record<string, string | undefined>): LockServiceEndpoints {
  return Object.fromEntries(
    (Object.keys(LOCK_SERVICES) as LockService[]).filter((service) => env[LOCK_SERVICES[service].env]).map((service) => [service, env[LOCK_SERVICES[service].env]]),
  );
}

/** The message a wrong address in a lock service's variable gets, naming the variable and the format. */
export function lockServiceAddressMessage(service: LockService): string {
  const { env, address, addressIs } = LOCK_SERVICES[service];
  return `"${env}" must be ${addressIs}, comma-separated (${ADDRESS_FORMATS[address].written})`;
}
