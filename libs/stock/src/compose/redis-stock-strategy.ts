import type { ProductRunSettings, StrategyName } from '@oversell/contracts';
import type Redis from 'ioredis';
import type { StockMovesRead } from '../request-moves';
import type { DeductContext, DeductResult, StockStrategy } from '../stock-strategy';
import { RedisStockStore } from './redis-stock-store';

/** A strategy whose store is the product's Redis stock key: seeding it, what is left and the moves are the store's. */
export abstract class RedisStockStrategy implements StockStrategy {
  abstract readonly name: StrategyName;
  protected readonly store: RedisStockStore;

  constructor(redis: Redis, keyPrefix: string) {
    this.store = new RedisStockStore(redis, keyPrefix);
  }

  prepare(settings: ProductRunSettings): Promise<void> {
    return this.store.prepare(settings);
  }

  remaining(settings: ProductRunSettings): Promise<number | null> {
    return this.store.remaining(settings);
  }

  async moves(settings: ProductRunSettings): Promise<StockMovesRead> {
    return this.store.moves(settings);
  }

  abstract deduct(context: DeductContext): Promise<DeductResult>;
}
