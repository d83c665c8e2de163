import { Inject, Injectable } from '@nestjs/common';
import type { StrategyDescription } from '@oversell/contracts';
import { LockEvents } from '../../locks/lock-events';
import type { LockHolding, ReleaseVerdict } from '../../locks/lock-based.strategy';
import { SpinLockStrategy } from '../../locks/spin-lock.strategy';
import { RedisConnections } from '../../redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';

const LOCKED = '1';

/**
 * `SET lock 1 NX PX ttl` to take the lock, plain `DEL lock` to let go. The value says nothing about
 * who holds the lock, so a holder whose lease ran out during a long business step deletes the lock
 * of whoever took it next — letting a third order in while the second is still inside.
 */
@Injectable()
export class NaiveSetnxStrategy extends SpinLockStrategy {
  readonly name = 'naive-setnx' as const;

  constructor(connections: RedisConnections, @Inject(STOCK_OPTIONS) options: StockOptions, lockEvents: LockEvents) {
    super(connections.commands, options, lockEvents);
  }

  protected async tryAcquire(key: string, _token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(key, LOCKED, 'PX', ttlMs, 'NX')) === 'OK';
  }

  protected async release(holding: LockHolding): Promise<ReleaseVerdict> {
    await this.redis.del(holding.key);
    return 'unknown';
  }

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'Naive SETNX lock',
      kind: 'lock',
      store: 'redis',
      safe: false,
      description: 'Takes the lock with SET lock 1 NX PX ttl, spins with jittered backoff while it is taken, and releases with a plain DEL.',
      guarantee: 'Mutual exclusion only while every holder finishes within the lock TTL.',
      pitfall:
        'When the business time exceeds the TTL the lock expires under its holder; a second order takes it and reads the same stock. The first then DELs the lock that now belongs to the second, letting a third in. Overlapping holders oversell.',
      reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms).',
      steps: ['SET lock 1 NX PX ttl (retry with backoff until the wait times out)', 'GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n', 'INSERT the order', 'DEL lock (whoever holds it)'],
      scripts: [],
    };
  }
}
