import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, type InjectionToken, Module, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { FAULT_HOOKS, FAULT_INJECTOR, STORE_CUT, type FaultHook, type FaultInjector } from './fault-points';
import { LockEvents } from './lock-events';
import { OrderTraces } from './order-traces';
import { IdempotencyKeys } from './placement/idempotency-keys';
import { InventoryService } from './placement/inventory.service';
import { LateSettlements } from './placement/late-settlements';
import { LockBreakerService } from './placement/lock-breaker.service';
import { OrderPlacementService } from './placement/order-placement.service';
import { OrderRecorder } from './placement/order-recorder';
import { OrderBatches } from './placement/order-queue/order-batches';
import { OrderWriteProcessor } from './placement/order-queue/order-write.processor';
import { ORDER_WRITE_QUEUE, OrderWriteQueue, orderQueuePrefix } from './placement/order-queue/order-write-queue';
import { OrderStreamWriter } from './placement/order-stream/order-stream-writer';
import { OrderStreams } from './placement/order-stream/order-streams';
import { ProductResetService } from './placement/product-reset.service';
import { ProductSettingsStore } from './placement/product-settings.store';
import { RedisConnections } from './redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from './stock.options';
import { STOCK_STRATEGIES, strategyRegistryProvider } from './strategy-registry';

export interface StockModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: InjectionToken[];
  useFactory: (...args: never[]) => StockOptions | Promise<StockOptions>;
  /** Run at every fault point of every order (crash and pause injection); none by default. */
  faultHooks?: FaultHook[];
  /** The host's injector of a run's faults, built here so it can use the module's Redis connections. */
  faultInjector?: Type<FaultInjector>;
}

/**
 * The strategies and the order placement around them. Needs a TypeORM DataSource from the host
 * (TypeOrmModule.forRoot with STOCK_ENTITIES and STOCK_MIGRATIONS); brings its own Redis connections.
 */
@Module({})
export class StockModule {
  static forRootAsync(options: StockModuleAsyncOptions): DynamicModule {
    return {
      module: StockModule,
      // One set of strategies and connections per process, visible to every module of the host.
      global: true,
      imports: [
        ...(options.imports ?? []),
        // The queue of orders written later (orderWrite 'queued'), on the stock's Redis: cut with it by a store cut.
        BullModule.registerQueueAsync({
          name: ORDER_WRITE_QUEUE,
          inject: [STOCK_OPTIONS, RedisConnections],
          useFactory: (stock: StockOptions, connections: RedisConnections) => {
            // By address and credentials: BullMQ makes its own connections, with its own retry settings.
            const { host, port, username, password, db } = { ...stock.redis, ...connections.storeCut?.route };
            return { connection: { host, port, username, password, db }, prefix: orderQueuePrefix(stock.keyPrefix) };
          },
        }),
      ],
      providers: [
        { provide: STOCK_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: FAULT_HOOKS, useValue: options.faultHooks ?? [] },
        ...optional(FAULT_INJECTOR, options.faultInjector),
        { provide: RedisConnections, useFactory: (stock: StockOptions) => RedisConnections.open(stock), inject: [STOCK_OPTIONS] },
        // The store-cut fault's proxy (StockOptions.storeProxy); null, and no store-cut can run, without it.
        { provide: STORE_CUT, useFactory: (connections: RedisConnections) => connections.storeCut, inject: [RedisConnections] },
        LockEvents,
        OrderTraces,
        strategyRegistryProvider,
        OrderRecorder,
        OrderWriteQueue,
        OrderBatches,
        OrderWriteProcessor,
        OrderStreams,
        OrderStreamWriter,
        IdempotencyKeys,
        LateSettlements,
        ProductSettingsStore,
        OrderPlacementService,
        ProductResetService,
        InventoryService,
        LockBreakerService,
      ],
      exports: [
        STOCK_OPTIONS,
        STOCK_STRATEGIES,
        RedisConnections,
        LockEvents,
        OrderTraces,
        OrderPlacementService,
        ProductResetService,
        InventoryService,
        LateSettlements,
        LockBreakerService,
        OrderRecorder,
        OrderWriteQueue,
        OrderWriteProcessor,
        OrderStreams,
        OrderStreamWriter,
        STORE_CUT,
      ],
    };
  }
}

function optional(token: symbol, useClass: Type | undefined): (Provider & { provide: symbol })[] {
  return useClass ? [{ provide: token, useClass }] : [];
}
