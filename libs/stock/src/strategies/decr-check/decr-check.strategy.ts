import { loadLuaScript } from '@oversell/locks';
import type { Result } from 'ioredis';
import { atomicRedisStock, recordTake } from '../../compose/atomic-redis-stock';
import { StockNotSeededError } from '../../errors';
import { CLAIMED, claimedByAnother, claimOf } from '../../redis/order-claim';
import { giveBack } from '../../redis/redis-stock';

const DECREMENT_COUNTER = loadLuaScript(__dirname, 'decrement-counter-4.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementCounterV1(
      stockKey: string,
      movesKey: string,
      ordersKey: string,
      claimKey: string,
      units: number,
      requestId: string,
      order: string,
      claimSeconds: number | '',
    ): Result<number | null | typeof CLAIMED, Context>;
  }
}

/**
 * An atomic counter used the way the articles show it: decrement first, give back on overdraft. What
 * is left is the counter as it is: below 0 while (or, after a crash, since) an order overdrew it.
 */
export const decrCheck = atomicRedisStock('decr-check', DECREMENT_COUNTER, async (redis, keys, context) => {
  const claim = claimOf(keys, context);
  const left = await redis.decrementCounterV1(keys.stock, keys.moves, keys.orders, claim.key, context.quantity, context.requestId, context.orderIntent ?? '', claim.seconds);
  if (left === CLAIMED) throw claimedByAnother(context);
  if (left === null) throw new StockNotSeededError(context.settings.productId);
  if (left < 0) {
    await context.faults.at('stock-overdrawn');
    // The counter gone meanwhile (Redis restarted): nothing to give back into, and the store is lost.
    if (!(await giveBack(redis, keys, context))) throw new StockNotSeededError(context.settings.productId);
    return { outcome: 'sold_out' };
  }
  return recordTake(redis, keys, context);
});
