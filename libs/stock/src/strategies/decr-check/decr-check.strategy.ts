import { loadLuaScript } from '@oversell/locks';
import { atomicRedisStock, recordTake } from '../../compose/atomic-redis-stock';
import { StockNotSeededError } from '../../errors';
import { giveBack } from '../../redis/redis-stock';

const DECREMENT_COUNTER = loadLuaScript(__dirname, 'decrement-counter-4.lua');

/**
 * An atomic counter used the way the articles show it: decrement first, give back on overdraft. What
 * is left is the counter as it is: below 0 while (or, after a crash, since) an order overdrew it.
 */
export const decrCheck = atomicRedisStock('decr-check', DECREMENT_COUNTER, async (left: number | null, redis, keys, context) => {
  if (left === null) throw new StockNotSeededError(context.settings.productId);
  if (left < 0) {
    const overdrawn = context.faults.at('stock-overdrawn');
    if (overdrawn) await overdrawn;
    // The counter gone meanwhile (Redis restarted): nothing to give back into, and the store is lost.
    if (!(await giveBack(redis, keys, context))) throw new StockNotSeededError(context.settings.productId);
    return { outcome: 'sold_out' };
  }
  return recordTake(redis, keys, context);
});
