import { lockServiceEndpoints } from '@oversell/contracts';
import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { INestApplicationContext } from '@nestjs/common';
import type Redis from 'ioredis';
import { mysqlDataSourceOptions, type MysqlConnectionSettings } from '../persistence';
import { InventoryService } from '../placement/inventory.service';
import { LockBreakerService } from '../placement/lock-breaker.service';
import { OrderPlacementService } from '../placement/order-placement.service';
import { ProductResetService } from '../placement/product-reset.service';
import { RedisConnections } from '../redis/redis-connections';
import { StockModule } from '../stock.module';
import type { FaultHook, FaultInjector } from '../fault-points';
import { DEFAULT_STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { freshKeyPrefix, testRedisOptions } from '@oversell/locks/testing';
import { stopIdleOrderWorkers } from './concurrent-orders';
import { CuttableProxy } from '@oversell/locks';
import { testMysqlSettings } from './test-services';

export interface StockTestApp {
  app: INestApplicationContext;
  placement: OrderPlacementService;
  reset: ProductResetService;
  inventory: InventoryService;
  lockBreaker: LockBreakerService;
  registry: StrategyRegistry;
  redis: Redis;
  close(): Promise<void>;
}

/** The real StockModule wired to the real test Redis and MariaDB, as the service wires it. */
export async function createStockTestApp({
  faultHooks,
  faultInjector,
  mysql,
  ...options
}: Partial<StockOptions> & { keyPrefix: string; faultHooks?: FaultHook[]; faultInjector?: Type<FaultInjector>; mysql?: Partial<MysqlConnectionSettings> }): Promise<StockTestApp> {
  const stockOptions: StockOptions = {
    ...DEFAULT_STOCK_OPTIONS,
    redis: testRedisOptions(),
    instanceId: `test-${process.pid}`,
    lockServices: lockServiceEndpoints(process.env),
    ...options,
  };

  @Module({
    imports: [
      // `mysql` overrides the test MariaDB's address: a CuttableProxy in front of it, for an outage.
      TypeOrmModule.forRoot({ ...mysqlDataSourceOptions({ ...testMysqlSettings(), ...mysql }), migrationsRun: false }),
      StockModule.forRootAsync({ useFactory: () => stockOptions, faultHooks, faultInjector }),
    ],
  })
  class StockTestModule {}

  const app = await NestFactory.createApplicationContext(StockTestModule, { logger: false });
  app.enableShutdownHooks();
  return {
    app,
    placement: app.get(OrderPlacementService),
    reset: app.get(ProductResetService),
    inventory: app.get(InventoryService),
    lockBreaker: app.get(LockBreakerService),
    registry: app.get<StrategyRegistry>(STOCK_STRATEGIES),
    redis: app.get(RedisConnections).commands,
    close: () => app.close(),
  };
}

/**
 * Starts the real StockModule once for a test file (beforeAll) on a key prefix of its own, and removes
 * the prefix's keys and closes the connections afterwards (afterAll).
 */
export function useStockTestApp(options: Partial<Omit<StockOptions, 'keyPrefix'>> & { faultHooks?: FaultHook[] } = {}): { readonly app: StockTestApp; readonly keyPrefix: string } {
  const keyPrefix = freshKeyPrefix();
  let app: StockTestApp | undefined;
  beforeAll(async () => {
    app = await createStockTestApp({ ...options, keyPrefix });
  });
  afterAll(async () => {
    stopIdleOrderWorkers();
    if (!app) return;
    const keys = await app.redis.keys(`${keyPrefix}:*`);
    if (keys.length) await app.redis.del(...keys);
    await app.close();
  });
  return {
    keyPrefix,
    get app() {
      if (!app) throw new Error('useStockTestApp: the app starts in beforeAll; use it inside a test');
      return app;
    },
  };
}

/**
 * A second instance's StockModule (its own settings cache and connections) beside `lab`, over the same
 * Redis keys and MySQL: what another process of the lab would see.
 */
export function useOtherStockInstance(lab: { readonly keyPrefix: string }): { readonly app: StockTestApp } {
  let app: StockTestApp | undefined;
  beforeAll(async () => {
    app = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId: 'other-instance' });
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('useOtherStockInstance: the app starts in beforeAll; use it inside a test');
      return app;
    },
  };
}

/**
 * Another instance beside `lab` (same Redis keys) whose MySQL goes through a CuttableProxy, for a
 * MySQL outage that only that instance sees: `proxy.cut()` and `proxy.restore()`.
 */
export function useStockInstanceBehindMysqlProxy(lab: { readonly keyPrefix: string }, instanceId: string): { readonly app: StockTestApp; readonly proxy: CuttableProxy } {
  const mysql = testMysqlSettings();
  const proxy = new CuttableProxy(mysql.host, mysql.port);
  let app: StockTestApp | undefined;
  beforeAll(async () => {
    await proxy.start();
    app = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId, mysql: { port: proxy.port } });
  });
  afterAll(async () => {
    await app?.close();
    await proxy.stop();
  });
  return {
    proxy,
    get app() {
      if (!app) throw new Error('useStockInstanceBehindMysqlProxy: the app starts in beforeAll; use it inside a test');
      return app;
    },
  };
}
