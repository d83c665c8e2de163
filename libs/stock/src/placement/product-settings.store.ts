import { Inject, Injectable } from '@nestjs/common';
import type { FaultSettings, OrderWrite, ProductRunSettings, StrategyName } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import { ProductEntity } from '../persistence/product.entity';
import { RedisConnections } from '../redis/redis-connections';
import { StockKeys } from '../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { ProductNotFoundError } from '../errors';

/** Products whose settings one process keeps in memory; lab runs use a fresh product each. */
const CACHED_PRODUCTS = 1000;

/**
 * The settings of a product's current run. Redis holds them for every instance (a reset writes them
 * there); MySQL is the record they are read from when Redis has lost them. Orders read them from
 * an in-process cache: a stale entry is harmless because stock keys and the MySQL row carry the run
 * id, so old settings find no stock (StockNotSeededError) and the caller reloads with fresh().
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

  private readonly cache = new Map<number, ProductRunSettings>();

  /** From memory when this process has seen the product; from Redis (or MySQL) otherwise. */
  async cached(productId: number): Promise<ProductRunSettings> {
    return this.cache.get(productId) ?? this.fresh(productId);
  }

  /** Read again, replacing what this process remembered. */
  async fresh(productId: number): Promise<ProductRunSettings> {
    const settings = await this.get(productId);
    this.cache.delete(productId);
    if (this.cache.size >= CACHED_PRODUCTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(productId, settings);
    return settings;
  }

  private key(productId: number): string {
    return new StockKeys(this.options.keyPrefix, productId).settings;
  }

  async save({ faults, ...settings }: ProductRunSettings): Promise<void> {
    // One field per setting; the faults as one JSON field (absent with none, so a run without faults reads none).
    await this.redis.multi().del(this.key(settings.productId)).hset(this.key(settings.productId), { ...settings, ...(faults?.length ? { faults: JSON.stringify(faults) } : {}) }).exec();
    this.cache.delete(settings.productId);
  }

  /** Whether MySQL records this run's store as seeded: a reset got as far as filling it. */
  seeded(settings: Pick<ProductRunSettings, 'productId' | 'runId'>): Promise<boolean> {
    return this.dataSource.getRepository(ProductEntity).existsBy({ id: settings.productId, runId: settings.runId, seeded: true });
  }

  async get(productId: number): Promise<ProductRunSettings> {
    const cached = await this.redis.hgetall(this.key(productId));
    if (cached.runId) return parse(cached);
    // Redis lost the settings (restart, flush): MySQL still knows the run. Not written back — a reset
    // running at this moment writes newer settings, and this read must not overwrite them.
    const product = await this.dataSource.getRepository(ProductEntity).findOneBy({ id: productId });
    if (!product) throw new ProductNotFoundError(productId);
    return fromProduct(product);
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
    orderWrite: product.orderWrite,
    ...(product.faults?.length ? { faults: product.faults } : {}),
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
    orderWrite: hash.orderWrite as OrderWrite,
    ...(hash.faults ? { faults: JSON.parse(hash.faults) as FaultSettings[] } : {}),
  };
}
