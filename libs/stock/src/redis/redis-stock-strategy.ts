import type { ProductRunSettings, StrategyDescription, StrategyName } from '@oversell/contracts';
import type Redis from 'ioredis';
import type { StockOptions } from '../stock.options';
import type { DeductContext, DeductResult, StockStrategy } from '../stock-strategy';
import { StockKeys, type RunStockKeys } from './stock-keys';

/** The strategies whose stock is one Redis key per product: seeding and reading it are the same for all. */
export abstract class RedisStockStrategy implements StockStrategy {
  abstract readonly name: StrategyName;
  abstract describe(): StrategyDescription;
  abstract deduct(context: DeductContext): Promise<DeductResult>;

  protected constructor(
    protected readonly redis: Redis,
    protected readonly options: StockOptions,
  ) {}

  protected keys(settings: ProductRunSettings): RunStockKeys {
    return StockKeys.of(this.options.keyPrefix, settings);
  }

  async prepare(settings: ProductRunSettings): Promise<void> {
    await this.redis.set(this.keys(settings).stock, settings.initialStock);
  }

  async remaining(settings: ProductRunSettings): Promise<number | null> {
    const value = await this.redis.get(this.keys(settings).stock);
    return value === null ? null : Number(value);
  }
}
