import type { ProductRunSettings } from '@oversell/contracts';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisStockStore } from '../../compose/redis-stock-store';
import { luaScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { GIVE_BACK, recordOrGiveBack } from '../../redis/redis-stock';
import type { DeductContext, DeductResult, StockStrategy } from '../../stock-strategy';
import type { StockMovesRead } from '../../request-moves';

export const DECREMENT_STOCK = loadLuaScript(__dirname, 'decrement-stock-2.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementStockV1(stockKey: string, movesKey: string, units: number, requestId: string): Result<number, Context>;
  }
}

const NOT_ENOUGH = -1;
const NOT_SEEDED = -2;

/**
 * One Lua script checks and decrements in a single atomic step; no lock, no waiting. The business
 * time happens outside (after the stock is taken), so it costs latency, not correctness.
 */
class LuaDecrementStrategy implements StockStrategy {
  readonly name = 'lua-decrement' as const;
  private readonly store: RedisStockStore;

  constructor(deps: StrategyDeps) {
    this.store = new RedisStockStore(useScripts(deps.redis, [DECREMENT_STOCK]), deps.options.keyPrefix);
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

  async deduct(context: DeductContext): Promise<DeductResult> {
    const keys = this.store.keys(context.settings);
    const left = await this.store.redis.decrementStockV1(keys.stock, keys.moves, context.quantity, context.requestId);
    if (left === NOT_SEEDED) throw new StockNotSeededError(context.settings.productId);
    if (left === NOT_ENOUGH) return { outcome: 'sold_out' };
    await context.faults.at('stock-read');
    await context.faults.at('stock-written');
    return recordOrGiveBack(this.store.redis, keys, context);
  }
}

export const luaDecrement: StrategyDefinition<'lua-decrement'> = { name: 'lua-decrement', scripts: luaScriptsOf(DECREMENT_STOCK, GIVE_BACK), create: (deps) => new LuaDecrementStrategy(deps) };
