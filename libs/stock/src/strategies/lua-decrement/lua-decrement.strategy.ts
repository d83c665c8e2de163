import { loadLuaScript } from '@oversell/locks';
import type { Result } from 'ioredis';
import { atomicRedisStock, recordTake } from '../../compose/atomic-redis-stock';
import { StockNotSeededError } from '../../errors';
import { CLAIMED, claimedByAnother, claimOf } from '../../redis/order-claim';

export const DECREMENT_STOCK = loadLuaScript(__dirname, 'decrement-stock-4.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementStockV1(
      stockKey: string,
      movesKey: string,
      ordersKey: string,
      claimKey: string,
      units: number,
      requestId: string,
      order: string,
      claimSeconds: number | '',
    ): Result<number | typeof CLAIMED, Context>;
  }
}

const NOT_ENOUGH = -1;
const NOT_SEEDED = -2;

/**
 * One Lua script checks and decrements in a single atomic step; no lock, no waiting. The business
 * time happens outside (after the stock is taken), so it costs latency, not correctness.
 */
export const luaDecrement = atomicRedisStock('lua-decrement', DECREMENT_STOCK, async (redis, keys, context) => {
  const claim = claimOf(keys, context);
  const left = await redis.decrementStockV1(keys.stock, keys.moves, keys.orders, claim.key, context.quantity, context.requestId, context.orderIntent ?? '', claim.seconds);
  if (left === CLAIMED) throw claimedByAnother(context);
  if (left === NOT_SEEDED) throw new StockNotSeededError(context.settings.productId);
  if (left === NOT_ENOUGH) return { outcome: 'sold_out' };
  return recordTake(redis, keys, context);
});
