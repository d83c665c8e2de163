import type { StrategyDescription } from '@oversell/contracts';
import { RedisStockStrategy } from '../../compose/redis-stock-strategy';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { readCheckWrite } from '../../redis/redis-stock';
import type { DeductContext, DeductResult } from '../../stock-strategy';

/**
 * The baseline: GET the stock, think, SET stock − n. Nothing keeps two orders apart, so every order
 * that reads the same value sells the same unit again. It oversells whenever two orders overlap,
 * and the business delay only widens the window.
 */
class NoLockStrategy extends RedisStockStrategy {
  readonly name = 'no-lock' as const;

  constructor(deps: StrategyDeps) {
    super(deps.redis, deps.options.keyPrefix);
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
