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
  readonly streamsOrders = true;

  constructor(deps: StrategyDeps) {
    super(deps.redis, deps.options.keyPrefix);
  }

  deduct(context: DeductContext): Promise<DeductResult> {
    return readCheckWrite(this.store.redis, this.store.keys(context.settings), context);
  }
}

export const noLock: StrategyDefinition<'no-lock'> = { name: 'no-lock', scripts: [], create: (deps) => new NoLockStrategy(deps) };
