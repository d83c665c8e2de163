import type { StrategyDescription } from '@oversell/contracts';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { Result } from 'ioredis';
import { RedisStockStrategy } from '../../compose/redis-stock-strategy';
import { luaScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { GIVE_BACK, recordOrGiveBack } from '../../redis/redis-stock';
import type { DeductContext, DeductResult } from '../../stock-strategy';

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
class LuaDecrementStrategy extends RedisStockStrategy {
  readonly name = 'lua-decrement' as const;

  constructor(deps: StrategyDeps) {
    super(useScripts(deps.redis, [DECREMENT_STOCK]), deps.options.keyPrefix);
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

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'Atomic Lua decrement',
      kind: 'atomic',
      store: 'redis',
      settings: ['businessDelayMs'],
      lease: 'none',
      safe: true,
      description: 'Checks and decrements the stock inside one Lua script, which Redis runs with nothing interleaved, then records the order; if the order cannot be written the units are given back.',
      guarantee: 'Never oversells: the check and the decrement are one atomic step on one Redis. The fastest strategy.',
      pitfall:
        'Only as durable as Redis: stock lives in memory, and a failover to a replica that missed the last writes (asynchronous replication) can hand out units again. A crash between the decrement and the order insert leaves units taken without an order (reconciliation counts them as lost).',
      reproduce: 'Not by load. The dashboard shows 0 oversold and the highest throughput.',
      symptom:
        'Oversold stays 0, the lock timeline is empty (one atomic script, no lock) and its throughput bar is the ' +
        'closest to the no-op ceiling in the compare view.',
      steps: [
        'EVALSHA decrement-stock: if stock ≥ n then DECRBY n, noting the request id (sent again after a lost reply, it answers the same and takes nothing)',
        'if it answered -1: sold out',
        'business delay (outside any lock)',
        'INSERT the order (EVALSHA give-back: INCRBY n back once, if that fails)',
      ],
      choice: {
        runsOn: 'one Redis',
        complexity: 'low: one Lua script',
        reliability: 'never oversells on one Redis: check and decrement in one atomic step',
        underFault: {
          crash: 'Nothing is held: a dead order leaves nothing behind (at most a unit taken and not recorded).',
          pause: 'Nothing is held: a pause delays only its own order.',
          'store-cut': 'The order fails; nothing is held.',
          failover: 'Decrements not yet replicated are lost with the master: the promoted replica has more stock than was sold, and it oversells by them.',
        },
      },
      scripts: luaScriptsOf(DECREMENT_STOCK, GIVE_BACK),
    };
  }
}

export const luaDecrement: StrategyDefinition = { name: 'lua-decrement', create: (deps) => new LuaDecrementStrategy(deps) };
