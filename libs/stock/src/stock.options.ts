import type { LockServiceEndpoints } from '@oversell/contracts';
import type { RedisOptions } from 'ioredis';

export const STOCK_OPTIONS = Symbol('STOCK_OPTIONS');

/** What the stock library needs from its host: where Redis is, and the knobs the strategies share. */
export interface StockOptions {
  redis: RedisOptions;
  /** Prefix of every Redis key this library writes, so several labs (or tests) can share one Redis. */
  keyPrefix: string;
  /** Names this process in lock values and lock events. */
  instanceId: string;
  /** How long a lock strategy waits for the lock before answering lock_timeout. */
  lockWaitTimeoutMs: number;
  /** Attempts the optimistic strategy makes before answering conflict. */
  optimisticMaxAttempts: number;
  /** Added to this process's clock where a lock stamps or judges expiry times (setnx-getset): a skewed instance, on demand. */
  clockOffsetMs: number;
  /** Route this process's Redis connections through an in-process TCP proxy that a store-cut fault can cut (StoreCutProxy); off by default. */
  storeProxy?: boolean;
  /**
   * Where the lock services are (etcd, …); a strategy that needs one that is absent refuses its orders.
   * With 'redis-sentinel' given, the single-Redis locks keep their keys on that group's master
   * (RedisConnections.locks) and the stock stays on `redis`.
   */
  lockServices?: LockServiceEndpoints;
  /** The master's name in the Sentinels' config (REDIS_SENTINEL_MASTER), when 'redis-sentinel' is given. */
  sentinelMaster?: string;
  /** Run this process's writer of queued orders (orderWrite 'queued'); on unless false. */
  writeQueuedOrders?: boolean;
}

export const DEFAULT_STOCK_OPTIONS: Omit<StockOptions, 'redis' | 'instanceId'> = {
  keyPrefix: 'ol',
  lockWaitTimeoutMs: 10_000,
  optimisticMaxAttempts: 25,
  clockOffsetMs: 0,
};
