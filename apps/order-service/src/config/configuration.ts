import { registerAs, type ConfigType } from '@nestjs/config';
import { lockServiceEndpoints, publicHostNames, WILDCARD_BINDS } from '@oversell/contracts';
import { hostname } from 'node:os';

/** One validated namespace per dependency; modules read these, never process.env. */
export const appConfig = registerAs('app', () => ({
  port: Number(process.env.PORT),
  host: process.env.HOST!,
  instanceId: process.env.INSTANCE_ID || `${hostname()}-${process.env.PORT}`,
  /** Where the run worker's load reaches this instance; a wildcard bind address is no address to send to. */
  instanceUrl: process.env.INSTANCE_URL || `http://${WILDCARD_BINDS.includes(process.env.HOST!) ? hostname() : process.env.HOST}:${process.env.PORT}`,
  logLevel: process.env.LOG_LEVEL!,
  bodyLimitBytes: Number(process.env.BODY_LIMIT_BYTES),
  lockWaitTimeoutMs: Number(process.env.LOCK_WAIT_TIMEOUT_MS),
  optimisticMaxAttempts: Number(process.env.OPTIMISTIC_MAX_ATTEMPTS),
  clockOffsetMs: Number(process.env.CLOCK_OFFSET_MS),
  runWorker: String(process.env.RUN_WORKER) === 'true',
  /** Whether this instance writes queued orders (orderWrite 'queued'); every instance does by default. */
  orderWriter: String(process.env.ORDER_WRITER) === 'true',
  /** Orders of each run whose critical section this instance traces (the first ones); 0 turns the trace off. */
  tracedOrders: Number(process.env.TRACED_ORDERS),
  /** Unset only on loopback (validated at start): admin actions are then open, as for a local demo. */
  adminToken: process.env.ADMIN_TOKEN || undefined,
  corsOrigins: (process.env.CORS_ORIGINS ?? '').split(',').filter(Boolean),
  /** Names the lab is reached by beyond loopback (the gateway's and a proxy's Host check, and this one's). */
  publicHosts: publicHostNames(process.env.LAB_PUBLIC_HOST),
  runQueueLimit: Number(process.env.RUN_QUEUE_LIMIT),
  /** Where this lab's bench, lock-bench and pitfalls reports are (bench-results/); unset: it keeps none. */
  labResultsDir: process.env.LAB_RESULTS_DIR || undefined,
  /** Where the lock services (etcd, …) are: their variables, validated in env.schema. */
  lockServices: lockServiceEndpoints(process.env),
}));

export const mysqlConfig = registerAs('mysql', () => ({
  host: process.env.MYSQL_HOST!,
  port: Number(process.env.MYSQL_PORT),
  user: process.env.MYSQL_USER!,
  password: process.env.MYSQL_PASSWORD ?? '',
  database: process.env.MYSQL_DATABASE!,
  poolSize: Number(process.env.MYSQL_POOL_SIZE),
}));

export const redisConfig = registerAs('redis', () => ({
  host: process.env.REDIS_HOST!,
  port: Number(process.env.REDIS_PORT),
  password: process.env.REDIS_PASSWORD || undefined,
  keyPrefix: process.env.REDIS_KEY_PREFIX!,
  /** This process's Redis connections go through its own cuttable TCP proxy, for the store-cut fault. */
  storeProxy: String(process.env.STORE_PROXY) === 'true',
  /** The master's name in the Sentinels' config, when REDIS_SENTINELS puts the locks on a Sentinel group. */
  sentinelMaster: process.env.REDIS_SENTINEL_MASTER!,
}));

export type AppConfig = ConfigType<typeof appConfig>;
export type MysqlConfig = ConfigType<typeof mysqlConfig>;
export type RedisConfig = ConfigType<typeof redisConfig>;
