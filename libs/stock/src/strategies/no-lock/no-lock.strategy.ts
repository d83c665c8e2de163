import { Inject, Injectable } from '@nestjs/common';
import type { StrategyDescription } from '@oversell/contracts';
import { RedisConnections } from '../../redis/redis-connections';
import { readCheckWrite } from '../../redis/redis-stock';
import { RedisStockStrategy } from '../../redis/redis-stock-strategy';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import type { DeductContext, DeductResult } from '../../stock-strategy';

/**
 * The baseline: GET the stock, think, SET stock − n. Nothing keeps two orders apart, so every order
 * that reads the same value sells the same unit again. It oversells whenever two orders overlap,
 * and the business delay only widens the window.
 */
@Injectable()
export class NoLockStrategy extends RedisStockStrategy {
  readonly name = 'no-lock' as const;

  constructor(connections: RedisConnections, @Inject(STOCK_OPTIONS) options: StockOptions) {
    super(connections.commands, options);
  }

  deduct(context: DeductContext): Promise<DeductResult> {
    return readCheckWrite(this.redis, this.keys(context.settings).stock, context);
  }

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'No lock (baseline)',
      kind: 'none',
      store: 'redis',
      safe: false,
      description: 'Reads the stock from Redis, checks it, spends the business time, then writes stock − n back. No lock, no atomic step.',
      guarantee: 'None under concurrency. Correct only when orders arrive one at a time.',
      pitfall: 'Lost update: concurrent orders read the same stock value and each writes its own stock − n, so many orders sell the same units. Oversells on every concurrent run.',
      reproduce: 'Any run with more than one connection; a business delay of a few ms makes it dramatic.',
      steps: ['GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n (a stale value if someone sold meanwhile)', 'INSERT the order in MySQL'],
      scripts: [],
    };
  }
}
