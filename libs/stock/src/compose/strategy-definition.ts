import type { StrategyName, StrategyScript } from '@oversell/contracts';
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

/**
 * One row of the registry table: how to build the strategy a catalogue entry names, and the scripts it
 * sends (read from its folder's files, so not the catalogue's). Everything else about it is its entry's.
 */
export interface StrategyDefinition<Name extends StrategyName = StrategyName> {
  readonly name: Name;
  /** Its Lua or SQL, as the Explain view shows it. */
  readonly scripts: readonly StrategyScript[];
  create(deps: StrategyDeps): StockStrategy;
}
