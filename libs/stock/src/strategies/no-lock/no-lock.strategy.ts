import type { ProductRunSettings } from '@oversell/contracts';
import { RedisStockStore } from '../../compose/redis-stock-store';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { readCheckWrite } from '../../redis/redis-stock';
import type { DeductContext, DeductResult, StockStrategy } from '../../stock-strategy';
import type { StockMovesRead } from '../../request-moves';

/**
 * The baseline: GET the stock, think, SET stock − n. Nothing keeps two orders apart, so every order
 * that reads the same value sells the same unit again. It oversells whenever two orders overlap,
 * and the business delay only widens the window.
 */
class NoLockStrategy implements StockStrategy {
  readonly name = 'no-lock' as const;
  private readonly store: RedisStockStore;

  constructor(deps: StrategyDeps) {
    this.store = new RedisStockStore(deps.redis, deps.options.keyPrefix);
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

  deduct(context: DeductContext): Promise<DeductResult> {
    return readCheckWrite(this.store.redis, this.store.keys(context.settings), context);
  }
}

export const noLock: StrategyDefinition<'no-lock'> = { name: 'no-lock', scripts: [], create: (deps) => new NoLockStrategy(deps) };
