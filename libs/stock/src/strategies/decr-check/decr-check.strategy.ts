import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisStockStrategy } from '../../compose/redis-stock-strategy';
import { luaScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { GIVE_BACK, giveBack, recordOrGiveBack } from '../../redis/redis-stock';
import type { DeductContext, DeductResult } from '../../stock-strategy';

const DECREMENT_COUNTER = loadLuaScript(__dirname, 'decrement-counter-3.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementCounterV1(stockKey: string, movesKey: string, ordersKey: string, units: number, requestId: string, order: string): Result<number | null, Context>;
  }
}

/**
 * An atomic counter used the way the articles show it: decrement first, give back on overdraft. What
 * is left is the counter as it is: below 0 while (or, after a crash, since) an order overdrew it.
 */
class DecrCheckStrategy extends RedisStockStrategy {
  readonly name = 'decr-check' as const;
  readonly streamsOrders = true;

  constructor(deps: StrategyDeps) {
    super(useScripts(deps.redis, [DECREMENT_COUNTER]), deps.options.keyPrefix);
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { redis } = this.store;
    const keys = this.store.keys(context.settings);
    const left = await redis.decrementCounterV1(keys.stock, keys.moves, keys.orders, context.quantity, context.requestId, context.orderIntent ?? '');
    if (left === null) throw new StockNotSeededError(context.settings.productId);
    if (left < 0) {
      await context.faults.at('stock-overdrawn');
      // The counter gone meanwhile (Redis restarted): nothing to give back into, and the store is lost.
      if (!(await giveBack(redis, keys, context))) throw new StockNotSeededError(context.settings.productId);
      return { outcome: 'sold_out' };
    }
    await context.faults.at('stock-read');
    await context.faults.at('stock-written');
    return recordOrGiveBack(redis, keys, context);
  }
}

export const decrCheck: StrategyDefinition<'decr-check'> = { name: 'decr-check', scripts: luaScriptsOf(DECREMENT_COUNTER, GIVE_BACK), create: (deps) => new DecrCheckStrategy(deps) };
