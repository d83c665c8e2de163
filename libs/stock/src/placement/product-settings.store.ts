import { Inject, Injectable } from '@nestjs/common';
import type { ProductRunSettings, StrategyName } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import { ProductEntity } from '../persistence/product.entity';
import { RedisConnections } from '../redis/redis-connections';
import { StockKeys } from '../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { ProductNotFoundError } from './errors';

/**
 * The settings of a product's current run, read on every order. Redis holds a copy (one HGETALL per
 * order, shared by every instance the moment a reset writes it); MySQL is the record it is rebuilt
 * from when Redis has lost it.
 */
@Injectable()
export class ProductSettingsStore {
  private readonly redis;

  constructor(
    connections: RedisConnections,
    private readonly dataSource: DataSource,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    this.redis = connections.commands;
  }

  private key(productId: number): string {
    return new StockKeys(this.options.keyPrefix, productId).settings;
  }

  async save(settings: ProductRunSettings): Promise<void> {
    await this.redis.hset(this.key(settings.productId), { ...settings });
  }

  async get(productId: number): Promise<ProductRunSettings> {
    const cached = await this.redis.hgetall(this.key(productId));
    if (cached.runId) return parse(cached);
    const product = await this.dataSource.getRepository(ProductEntity).findOneBy({ id: productId });
    if (!product) throw new ProductNotFoundError(productId);
    const settings = fromProduct(product);
    await this.save(settings);
    return settings;
  }
}

export function fromProduct(product: ProductEntity): ProductRunSettings {
  return {
    productId: product.id,
    runId: product.runId,
    strategy: product.strategy,
    initialStock: product.initialStock,
    lockTtlMs: product.lockTtlMs,
    businessDelayMs: product.businessDelayMs,
    segments: product.segments,
  };
}

function parse(hash: Record<string, string>): ProductRunSettings {
  return {
    productId: Number(hash.productId),
    runId: hash.runId,
    strategy: hash.strategy as StrategyName,
    initialStock: Number(hash.initialStock),
    lockTtlMs: Number(hash.lockTtlMs),
    businessDelayMs: Number(hash.businessDelayMs),
    segments: Number(hash.segments),
  };
}
