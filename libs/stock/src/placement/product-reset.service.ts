import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_BUSINESS_DELAY_MS, DEFAULT_LOCK_TTL_MS, type ProductRunSettings, type ResetProductRequest } from '@oversell/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ProductEntity } from '../persistence/product.entity';
import { RedisConnections } from '../redis/redis-connections';
import { StockKeys } from '../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from './store-errors';

export const DEFAULT_SEGMENTS = 5;

/** Starts a fresh run of a product: new run id, MySQL row, an empty slate in Redis, the strategy's store seeded. */
@Injectable()
export class ProductResetService {
  constructor(
    @Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry,
    private readonly dataSource: DataSource,
    private readonly connections: RedisConnections,
    private readonly settingsStore: ProductSettingsStore,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
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
    };
    try {
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
        },
        ['id'],
      );
      await this.clearRedis(productId);
      await strategy.prepare(settings);
      // Written last: orders find the new run only once its store is seeded.
      await this.settingsStore.save(settings);
      return settings;
    } catch (error) {
      throw asStoreError(error);
    }
  }

  /** Deletes every key of the product (stock, segments, a lock left by a crashed holder, settings). */
  private async clearRedis(productId: number): Promise<void> {
    const redis = this.connections.commands;
    const pattern = new StockKeys(this.options.keyPrefix, productId).pattern();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
