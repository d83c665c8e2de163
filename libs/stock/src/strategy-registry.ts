import type { Provider } from '@nestjs/common';
import { STRATEGY_NAMES, type StrategyDescription, type StrategyName } from '@oversell/contracts';
import { UnknownStrategyError } from './placement/errors';
import type { StockStrategy } from './stock-strategy';
import { DbOptimisticStrategy } from './strategies/db-optimistic/db-optimistic.strategy';
import { LuaDecrementStrategy } from './strategies/lua-decrement/lua-decrement.strategy';
import { NaiveSetnxStrategy } from './strategies/naive-setnx/naive-setnx.strategy';
import { NoLockStrategy } from './strategies/no-lock/no-lock.strategy';
import { SegmentedStrategy } from './strategies/segmented/segmented.strategy';
import { UuidLuaStrategy } from './strategies/uuid-lua/uuid-lua.strategy';
import { WatchdogStrategy } from './strategies/watchdog/watchdog.strategy';

/** The injection token of the name → strategy registry. */
export const STOCK_STRATEGIES = Symbol('STOCK_STRATEGIES');

/** The one place a strategy is registered. */
export const STRATEGY_CLASSES = [
  NoLockStrategy,
  NaiveSetnxStrategy,
  UuidLuaStrategy,
  WatchdogStrategy,
  SegmentedStrategy,
  LuaDecrementStrategy,
  DbOptimisticStrategy,
];

/** Looks strategies up by name; an unknown name is an error, never a silent default. */
export class StrategyRegistry {
  private readonly byName: ReadonlyMap<StrategyName, StockStrategy>;

  constructor(strategies: readonly StockStrategy[]) {
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

  describeAll(): StrategyDescription[] {
    return this.all().map((strategy) => strategy.describe());
  }
}

export const strategyRegistryProvider: Provider = {
  provide: STOCK_STRATEGIES,
  useFactory: (...strategies: StockStrategy[]) => new StrategyRegistry(strategies),
  inject: STRATEGY_CLASSES,
};
