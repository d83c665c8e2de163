import type { ProductRunSettings } from '@oversell/contracts';
import type Redis from 'ioredis';
import { StockKeys, type RunStockKeys } from '../redis/stock-keys';
import { defineStockCellScripts } from '../redis/redis-stock';
import { StockMovePages } from '../redis/stock-moves';

/** A product's stock as one Redis key per run: seeding and reading it are the same for every strategy that keeps it there. */
export class RedisStockStore {
  /** By settings object: an order's are the process's cached ones (ProductSettingsStore), the same object for the whole run. */
  private readonly runKeys = new WeakMap<Pick<ProductRunSettings, 'productId' | 'runId'>, RunStockKeys>();

  constructor(
    readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    defineStockCellScripts(redis);
  }

  keys(settings: Pick<ProductRunSettings, 'productId' | 'runId'>): RunStockKeys {
    let keys = this.runKeys.get(settings);
    if (!keys) {
      keys = StockKeys.of(this.keyPrefix, settings);
      this.runKeys.set(settings, keys);
    }
    return keys;
  }

  async prepare(settings: ProductRunSettings): Promise<void> {
    await this.redis.set(this.keys(settings).stock, settings.initialStock);
  }

  async remaining(settings: ProductRunSettings): Promise<number | null> {
    const value = await this.redis.get(this.keys(settings).stock);
    return value === null ? null : Number(value);
  }

  moves(settings: Pick<ProductRunSettings, 'productId' | 'runId'>): StockMovePages {
    return new StockMovePages([{ redis: this.redis, key: this.keys(settings).moves }]);
  }
}
