import { Inject, Injectable } from '@nestjs/common';
import { RedisConnections } from '../redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import type { LockHolding, ReleaseVerdict } from './lock-based.strategy';
import { LockEvents } from './lock-events';
import { SpinLockStrategy } from './spin-lock.strategy';

/**
 * A spin lock whose value is the holder's own token: `SET key <token> NX PX ttl` to take it, a Lua
 * compare-and-delete (release-lock-1.lua) to let go, so a holder never deletes a lock it no longer owns.
 * Subclasses inherit the constructor (and its injection metadata).
 */
@Injectable()
export abstract class TokenLockStrategy extends SpinLockStrategy {
  constructor(connections: RedisConnections, @Inject(STOCK_OPTIONS) options: StockOptions, lockEvents: LockEvents) {
    super(connections.commands, options, lockEvents);
  }

  protected async tryAcquire(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  protected async release(holding: LockHolding): Promise<ReleaseVerdict> {
    return (await this.redis.releaseLockV1(holding.key, holding.token)) === 1;
  }
}
