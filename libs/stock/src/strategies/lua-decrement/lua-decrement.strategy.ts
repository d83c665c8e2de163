import { loadLuaScript } from '@oversell/locks';
import { atomicRedisStock, recordTake } from '../../compose/atomic-redis-stock';
import { StockNotSeededError } from '../../errors';

export const DECREMENT_STOCK = loadLuaScript(__dirname, 'decrement-stock-4.lua');

const NOT_ENOUGH = -1;
const NOT_SEEDED = -2;

/**
 * One Lua script checks and decrements in a single atomic step; no lock, no waiting. The business
 * time happens outside (after the stock is taken), so it costs latency, not correctness.
 */
export const luaDecrement = atomicRedisStock('lua-decrement', DECREMENT_STOCK, async (left: number, redis, keys, context) => {
  if (left === NOT_SEEDED) throw new StockNotSeededError(context.settings.productId);
  if (left === NOT_ENOUGH) return { outcome: 'sold_out' };
  return recordTake(redis, keys, context);
});
