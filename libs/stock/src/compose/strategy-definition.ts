import type { StrategyName } from '@oversell/contracts';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { LockEvents } from '../lock-events';
import type { StockOptions } from '../stock.options';
import type { StockStrategy } from '../stock-strategy';

/** What a strategy may be built from: the process's connections and the library's options. */
export interface StrategyDeps {
  redis: Redis;
  /** A connection in subscriber mode, for locks whose waiters wait for a release message. */
  readonly subscriber: Redis;
  dataSource: DataSource;
  options: StockOptions;
  lockEvents: LockEvents;
}

/** One row of the registry table: a name and how to build the strategy it names. */
export interface StrategyDefinition {
  readonly name: StrategyName;
  create(deps: StrategyDeps): StockStrategy;
}
