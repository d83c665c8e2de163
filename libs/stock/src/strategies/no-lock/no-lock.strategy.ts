import type { ProductRunSettings, StrategyDescription } from '@oversell/contracts';
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

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'No lock (baseline)',
      kind: 'none',
      store: 'redis',
      settings: ['businessDelayMs'],
      lease: 'none',
      safe: false,
      description: 'Reads the stock from Redis, checks it, spends the business time, then writes stock − n back. No lock, no atomic step.',
      guarantee: 'None under concurrency. Correct only when orders arrive one at a time.',
      pitfall: 'Lost update: concurrent orders read the same stock value and each writes its own stock − n, so many orders sell the same units. Oversells on every concurrent run.',
      reproduce: 'Any run with more than one connection; a business delay of a few ms makes it dramatic.',
      symptom:
        'The red oversold counter goes above 0 and the "units sold" line crosses the dashed initial-stock line. ' +
        'The lock timeline stays empty: nothing is locked.',
      steps: ['GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n (a stale value if someone sold meanwhile)', 'INSERT the order in MySQL'],
      scripts: [],
    };
  }
}

export const noLock: StrategyDefinition = { name: 'no-lock', create: (deps) => new NoLockStrategy(deps) };
