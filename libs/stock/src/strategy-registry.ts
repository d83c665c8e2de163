import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { STRATEGY_NAMES, type LockService, type StrategyDescription, type StrategyName } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import type { StrategyDefinition } from './compose/strategy-definition';
import { UnknownStrategyError } from './errors';
import { LockEvents } from './lock-events';
import { RedisConnections } from './redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from './stock.options';
import type { StockStrategy } from './stock-strategy';
import { dbConditional } from './strategies/db-conditional/db-conditional.strategy';
import { dbLockTable } from './strategies/db-lock-table/db-lock-table.strategy';
import { dbLockTableTtl } from './strategies/db-lock-table-ttl/db-lock-table-ttl.strategy';
import { etcd } from './strategies/etcd/etcd.strategy';
import { dbOptimistic } from './strategies/db-optimistic/db-optimistic.strategy';
import { dbPessimistic } from './strategies/db-pessimistic/db-pessimistic.strategy';
import { decrCheck } from './strategies/decr-check/decr-check.strategy';
import { luaDecrement } from './strategies/lua-decrement/lua-decrement.strategy';
import { naiveSetnx } from './strategies/naive-setnx/naive-setnx.strategy';
import { noLock } from './strategies/no-lock/no-lock.strategy';
import { redlock } from './strategies/redlock/redlock.strategy';
import { redlockLib } from './strategies/redlock-lib/redlock-lib.strategy';
import { redlockDelayedRestart } from './strategies/redlock-delayed-restart/redlock-delayed-restart.strategy';
import { segmented } from './strategies/segmented/segmented.strategy';
import { segmentedCluster } from './strategies/segmented-cluster/segmented-cluster.strategy';
import { setnxExpire } from './strategies/setnx-expire/setnx-expire.strategy';
import { setnxGetset } from './strategies/setnx-getset/setnx-getset.strategy';
import { setnxNoTtl } from './strategies/setnx-no-ttl/setnx-no-ttl.strategy';
import { uuidCheckDel } from './strategies/uuid-check-del/uuid-check-del.strategy';
import { uuidLua } from './strategies/uuid-lua/uuid-lua.strategy';
import { watchdog } from './strategies/watchdog/watchdog.strategy';
import { watchdogFenced } from './strategies/watchdog-fenced/watchdog-fenced.strategy';
import { watchdogFencedMysql } from './strategies/watchdog-fenced-mysql/watchdog-fenced-mysql.strategy';
import { zookeeper } from './strategies/zookeeper/zookeeper.strategy';

/** The injection token of the name → strategy registry. */
export const STOCK_STRATEGIES = Symbol('STOCK_STRATEGIES');

/** The one table of strategies: a lock around a store's read-check-write, or an atomic store operation. */
export const STRATEGIES: readonly StrategyDefinition[] = [noLock, naiveSetnx, uuidLua, watchdog, segmented, luaDecrement, dbOptimistic, setnxGetset, uuidCheckDel, decrCheck, setnxNoTtl, setnxExpire, dbPessimistic, dbConditional, dbLockTable, dbLockTableTtl, watchdogFenced, watchdogFencedMysql, etcd, zookeeper, redlock, redlockLib, redlockDelayedRestart, segmentedCluster];

/** The lock services (etcd, …) these strategies need, each once: what a launcher starts before the instances. */
export function lockServicesNeededBy(names: readonly StrategyName[]): LockService[] {
  return [...new Set(STRATEGIES.filter((definition) => names.includes(definition.name)).flatMap((definition) => definition.needs ?? []))];
}

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

  describeAll(): StrategyDescription[] {
    return this.all().map((strategy) => strategy.describe());
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
    const strategies = STRATEGIES.map((definition) =>
      definition.create({
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
