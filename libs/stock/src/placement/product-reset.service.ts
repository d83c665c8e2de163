import { Inject, Injectable, Optional } from '@nestjs/common';
import { OrderWriteUnsupportedError } from '../errors';
import { DEFAULT_BUSINESS_DELAY_MS, DEFAULT_LOCK_TTL_MS, DEFAULT_ORDER_WRITE, STRATEGY_SETTINGS, type ProductRunSettings, type ResetProductRequest } from '@oversell/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FAULT_INJECTOR, type FaultInjector } from '../fault-points';
import { ProductEntity } from '../persistence/product.entity';
import { RedisConnections } from '../redis/redis-connections';
import { StockKeys } from '../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { OrderStreams } from './order-stream/order-streams';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from '../store-errors';

export const DEFAULT_SEGMENTS = STRATEGY_SETTINGS.segments.default;

/** Starts a fresh run of a product: new run id, MySQL row, the strategy's store seeded, earlier runs' keys gone. */
@Injectable()
export class ProductResetService {
  constructor(
    @Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry,
    private readonly dataSource: DataSource,
    private readonly connections: RedisConnections,
    private readonly settingsStore: ProductSettingsStore,
    private readonly orderStreams: OrderStreams,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
    @Optional() @Inject(FAULT_INJECTOR) private readonly faultInjector: FaultInjector | null = null,
  ) {}

  /** `runId` lets a lab run use its own id as the product run id, so its figures and orders share one key. */
  async reset(productId: number, request: ResetProductRequest, runId: string = randomUUID()): Promise<ProductRunSettings> {
    const strategy = this.registry.get(request.strategy);
    const settings: ProductRunSettings = {
      productId,
      runId,
      strategy: strategy.name,
      initialStock: request.stock,
      lockTtlMs: request.lockTtlMs ?? DEFAULT_LOCK_TTL_MS,
      businessDelayMs: request.businessDelayMs ?? DEFAULT_BUSINESS_DELAY_MS,
      segments: request.segments ?? DEFAULT_SEGMENTS,
      orderWrite: request.orderWrite ?? DEFAULT_ORDER_WRITE,
      ...(request.faults?.length ? { faults: request.faults } : {}),
    };
    if (settings.orderWrite === 'stream' && !strategy.streamsOrders) throw new OrderWriteUnsupportedError(strategy.name, settings.orderWrite);
    try {
      // The MySQL row first: it is db-optimistic's store (stock, version 0, the run id its statements check).
      await this.dataSource.getRepository(ProductEntity).upsert(
        {
          id: productId,
          sku: `SKU-${productId}`,
          name: `Product ${productId}`,
          initialStock: settings.initialStock,
          stock: settings.initialStock,
          version: 0,
          runId: settings.runId,
          strategy: settings.strategy,
          lockTtlMs: settings.lockTtlMs,
          businessDelayMs: settings.businessDelayMs,
          segments: settings.segments,
          orderWrite: settings.orderWrite,
          faults: settings.faults ?? null,
          seeded: false,
        },
        ['id'],
      );
      // The Redis stores live under keys of the new run's own, so seeding them disturbs no order of the
      // current run; writing the settings is the switch that sends orders to the new run.
      await strategy.prepare(settings);
      // The stream and its writers' group before the first take can append to it.
      if (settings.orderWrite === 'stream') await this.orderStreams.open(settings, strategy);
      // Recorded before the switch, in MySQL, which outlives Redis's keys: an order that later finds
      // this run's store empty is told the store was lost, not that it was never seeded.
      await this.dataSource.getRepository(ProductEntity).update({ id: productId, runId: settings.runId }, { seeded: true });
      await this.faultInjector?.prepare?.(settings);
      await this.settingsStore.save(settings);
      await this.clearEarlierRuns(productId, settings.runId);
      return settings;
    } catch (error) {
      // A store failed part-way: the product may be half reset (MySQL new, Redis not). Resetting again repairs it.
      throw asStoreError(error);
    }
  }

  /**
   * Deletes the keys of earlier runs (their stock, segments, a lock left by a crashed holder). An earlier
   * run's order stream goes only once empty: orders in it are sold and not yet written.
   */
  private async clearEarlierRuns(productId: number, runId: string): Promise<void> {
    const redis = this.connections.commands;
    const product = new StockKeys(this.options.keyPrefix, productId);
    const keep = (key: string) => key === product.settings || key.includes(`:${runId}:`);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', product.pattern(), 'COUNT', 500);
      const earlier = keys.filter((key) => !keep(key) && !key.endsWith(':orders'));
      if (earlier.length) await redis.del(...earlier);
      for (const stream of keys.filter((key) => !keep(key) && key.endsWith(':orders'))) await this.orderStreams.dropIfWritten(stream);
      cursor = next;
    } while (cursor !== '0');
  }
}
