import type { LockService, StrategyName } from '@oversell/contracts';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { LockEvents } from '../lock-events';
import type { StockOptions } from '../stock.options';
import type { StockStrategy } from '../stock-strategy';

/** What a strategy may be built from: the process's connections and the library's options. */
export interface StrategyDeps {
  /** The stock's Redis (and, with no Sentinel group given, the locks'). */
  redis: Redis;
  /** A connection in subscriber mode, for locks whose waiters wait for a release message. */
  readonly subscriber: Redis;
  /** Where the single-Redis locks keep their keys: the Sentinel group's master when one is given (RedisConnections.locks). */
  lockRedis: Redis;
  /** lockRedis's subscriber: a lock's release messages go through the Redis that holds it. */
  readonly lockSubscriber: Redis;
  dataSource: DataSource;
  options: StockOptions;
  lockEvents: LockEvents;
  /** Runs `close` when the process shuts down: for connections a strategy opens of its own (a lock service's client). */
  onShutdown(close: () => unknown): void;
}

/** One row of the registry table: a name and how to build the strategy it names. */
export interface StrategyDefinition {
  readonly name: StrategyName;
  /** The lock services it needs (its description's `needs`), known before anything is built. */
  readonly needs?: readonly LockService[];
  create(deps: StrategyDeps): StockStrategy;
}
