import { Inject, Injectable } from '@nestjs/common';
import type { StrategyDescription } from '@oversell/contracts';
import { StockNotSeededError } from '../../placement/errors';
import { RedisConnections } from '../../redis/redis-connections';
import { recordOrGiveBack } from '../../redis/redis-stock';
import { RedisStockStrategy } from '../../redis/redis-stock-strategy';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import type { DeductContext, DeductResult } from '../../stock-strategy';
import { LUA_SCRIPTS } from '../lua-scripts';

const NOT_ENOUGH = -1;
const NOT_SEEDED = -2;

/**
 * One Lua script checks and decrements in a single atomic step; no lock, no waiting. The business
 * time happens outside (after the stock is taken), so it costs latency, not correctness.
 */
@Injectable()
export class LuaDecrementStrategy extends RedisStockStrategy {
  readonly name = 'lua-decrement' as const;

  constructor(connections: RedisConnections, @Inject(STOCK_OPTIONS) options: StockOptions) {
    super(connections.commands, options);
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const stockKey = this.keys(context.settings).stock;
    const left = await this.redis.decrementStockV1(stockKey, context.quantity);
    if (left === NOT_SEEDED) throw new StockNotSeededError(context.settings.productId);
    if (left === NOT_ENOUGH) return { outcome: 'sold_out' };
    await context.faults.at('stock-read');
    await context.faults.at('stock-written');
    return recordOrGiveBack(this.redis, stockKey, context);
  }

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'Atomic Lua decrement',
      kind: 'atomic',
      store: 'redis',
      safe: true,
      description: 'Checks and decrements the stock inside one Lua script, which Redis runs with nothing interleaved, then records the order; if the order cannot be written the units are given back.',
      guarantee: 'Never oversells: the check and the decrement are one atomic step on one Redis. The fastest strategy.',
      pitfall:
        'Only as durable as Redis: stock lives in memory, and a failover to a replica that missed the last writes (asynchronous replication) can hand out units again. A crash between the decrement and the order insert leaves units taken without an order (reconciliation counts them as lost).',
      reproduce: 'Not by load. The dashboard shows 0 oversold and the highest throughput.',
      steps: ['EVALSHA decrement-stock: if stock ≥ n then DECRBY n', 'if it answered -1: sold out', 'business delay (outside any lock)', 'INSERT the order (INCRBY n back if that fails)'],
      scripts: [{ name: LUA_SCRIPTS.decrementStock.fileName, language: 'lua', source: LUA_SCRIPTS.decrementStock.lua }],
    };
  }
}
