import type { ProductRunSettings } from '@oversell/contracts';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisStockStore } from '../../compose/redis-stock-store';
import { luaScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { GIVE_BACK, giveBack, recordOrGiveBack } from '../../redis/redis-stock';
import type { DeductContext, DeductResult, StockStrategy } from '../../stock-strategy';
import type { StockMovesRead } from '../../request-moves';

const DECREMENT_COUNTER = loadLuaScript(__dirname, 'decrement-counter-2.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    decrementCounterV1(stockKey: string, movesKey: string, units: number, requestId: string): Result<number, Context>;
  }
}

/** An atomic counter used the way the articles show it: decrement first, give back on overdraft. */
class DecrCheckStrategy implements StockStrategy {
  readonly name = 'decr-check' as const;
  private readonly store: RedisStockStore;

  constructor(deps: StrategyDeps) {
    this.store = new RedisStockStore(useScripts(deps.redis, [DECREMENT_COUNTER]), deps.options.keyPrefix);
  }

  prepare(settings: ProductRunSettings): Promise<void> {
    return this.store.prepare(settings);
  }

  /** The counter as it is: below 0 while (or, after a crash, since) an order overdrew it. */
  remaining(settings: ProductRunSettings): Promise<number | null> {
    return this.store.remaining(settings);
  }

  async moves(settings: ProductRunSettings): Promise<StockMovesRead> {
    return this.store.moves(settings);
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { redis } = this.store;
    const keys = this.store.keys(context.settings);
    // Sent in one tick, so auto-pipelining puts both in one round trip.
    const [seeded, left] = await Promise.all([redis.exists(keys.stock), redis.decrementCounterV1(keys.stock, keys.moves, context.quantity, context.requestId)]);
    if (seeded === 0) {
      // DECRBY created the key at −n. Deleting it keeps the product unseeded, so the placement reloads
      // its run instead of a key of a stale run answering sold out for ever.
      await redis.del(keys.stock);
      throw new StockNotSeededError(context.settings.productId);
    }
    if (left < 0) {
      await context.faults.at('stock-overdrawn');
      await giveBack(redis, keys, context);
      return { outcome: 'sold_out' };
    }
    await context.faults.at('stock-read');
    await context.faults.at('stock-written');
    return recordOrGiveBack(redis, keys, context);
  }
}

export const decrCheck: StrategyDefinition<'decr-check'> = { name: 'decr-check', scripts: luaScriptsOf(DECREMENT_COUNTER, GIVE_BACK), create: (deps) => new DecrCheckStrategy(deps) };
