import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { STRATEGY_NAMES, type Locale, type StrategyDescription, type StrategyName } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import { UnknownStrategyError } from './errors';
import { LockEvents } from './lock-events';
import { RedisConnections } from './redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from './stock.options';
import type { StockStrategy } from './stock-strategy';
import { describeStrategies } from './strategy-descriptions';
import { STRATEGIES } from './strategy-table';

/** The injection token of the name → strategy registry. */
export const STOCK_STRATEGIES = Symbol('STOCK_STRATEGIES');

/** Looks strategies up by name; an unknown name is an error, never a silent default. */
export class StrategyRegistry implements OnApplicationShutdown {
  private readonly byName: ReadonlyMap<StrategyName, StockStrategy>;

  constructor(
    strategies: readonly StockStrategy[],
    /** What the strategies asked to run at shutdown (StrategyDeps.onShutdown). */
    private readonly closers: readonly (() => unknown)[] = [],
  ) {
    const byName = new Map<StrategyName, StockStrategy>();
    for (const strategy of strategies) {
      if (byName.has(strategy.name)) throw new Error(`strategy "${strategy.name}" is registered twice`);
      byName.set(strategy.name, strategy);
    }
    const missing = STRATEGY_NAMES.filter((name) => !byName.has(name));
    if (missing.length) throw new Error(`no implementation registered for strategy ${missing.join(', ')}`);
    this.byName = byName;
  }

  get(name: string): StockStrategy {
    const strategy = this.byName.get(name as StrategyName);
    if (!strategy) throw new UnknownStrategyError(name);
    return strategy;
  }

  /** In the order of STRATEGY_NAMES, which is the order of every table. */
  all(): StockStrategy[] {
    return STRATEGY_NAMES.map((name) => this.byName.get(name)!);
  }

  describeAll(locale: Locale = 'en'): StrategyDescription[] {
    return describeStrategies(locale);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.closers.map(async (close) => close()));
  }
}

/** The one factory: every row of the table built from this process's connections. */
export const strategyRegistryProvider: Provider = {
  provide: STOCK_STRATEGIES,
  useFactory: (connections: RedisConnections, dataSource: DataSource, options: StockOptions, lockEvents: LockEvents) => {
    const closers: (() => unknown)[] = [];
    const strategies = STRATEGY_NAMES.map((name) =>
      STRATEGIES[name].create({
        redis: connections.commands,
        get subscriber() {
          return connections.subscriber;
        },
        lockRedis: connections.locks,
        get lockSubscriber() {
          return connections.lockSubscriber;
        },
        dataSource,
        options,
        lockEvents,
        onShutdown: (close) => closers.push(close),
      }),
    );
    return new StrategyRegistry(strategies, closers);
  },
  inject: [RedisConnections, DataSource, STOCK_OPTIONS, LockEvents],
};
