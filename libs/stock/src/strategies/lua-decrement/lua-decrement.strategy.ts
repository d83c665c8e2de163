import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisStockStrategy } from '../../compose/redis-stock-strategy';
import { luaScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { GIVE_BACK, recordOrGiveBack } from '../../redis/redis-stock';
import type { DeductContext, DeductResult } from '../../stock-strategy';

export const DECREMENT_STOCK = loadLuaScript(__dirname, 'decrement-stock-3.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementStockV1(stockKey: string, movesKey: string, ordersKey: string, units: number, requestId: string, order: string): Result<number, Context>;
  }
}

const NOT_ENOUGH = -1;
const NOT_SEEDED = -2;

/**
 * One Lua script checks and decrements in a single atomic step; no lock, no waiting. The business
 * time happens outside (after the stock is taken), so it costs latency, not correctness.
 */
class LuaDecrementStrategy extends RedisStockStrategy {
  readonly name = 'lua-decrement' as const;
  readonly streamsOrders = true;

  constructor(deps: StrategyDeps) {
    super(useScripts(deps.redis, [DECREMENT_STOCK]), deps.options.keyPrefix);
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const keys = this.store.keys(context.settings);
    const left = await this.store.redis.decrementStockV1(keys.stock, keys.moves, keys.orders, context.quantity, context.requestId, context.orderIntent ?? '');
    if (left === NOT_SEEDED) throw new StockNotSeededError(context.settings.productId);
    if (left === NOT_ENOUGH) return { outcome: 'sold_out' };
    await context.faults.at('stock-read');
    await context.faults.at('stock-written');
    return recordOrGiveBack(this.store.redis, keys, context);
  }
}

export const luaDecrement: StrategyDefinition<'lua-decrement'> = { name: 'lua-decrement', scripts: luaScriptsOf(DECREMENT_STOCK, GIVE_BACK), create: (deps) => new LuaDecrementStrategy(deps) };
