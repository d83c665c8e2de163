import { Injectable } from '@nestjs/common';
import type { StrategyDescription } from '@oversell/contracts';
import { TokenLockStrategy } from '../../locks/token-lock.strategy';
import { LUA_SCRIPTS } from '../lua-scripts';

/**
 * `SET lock <owner token> NX PX ttl`, released by a Lua compare-and-delete, so a holder never
 * deletes a lock it no longer owns. The lease still runs out under a slow holder: the next order gets
 * the lock while the first is still inside, and both sell the same stock.
 */
@Injectable()
export class UuidLuaStrategy extends TokenLockStrategy {
  readonly name = 'uuid-lua' as const;

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'Owner token + Lua release',
      kind: 'lock',
      store: 'redis',
      safe: false,
      description: 'Writes a unique owner token into the lock (SET NX PX) and releases it with a Lua script that deletes the key only if it still holds that token.',
      guarantee: 'Never deletes another holder\'s lock. Mutual exclusion while every holder finishes within the TTL.',
      pitfall: 'Nothing extends the lease: when the business time exceeds the TTL the lock expires, a second order is granted it while the first is still inside, and both write the same stock (double grant). Oversells.',
      reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms). The lock timeline shows overlapping bars.',
      steps: ['SET lock <token> NX PX ttl (retry with backoff)', 'GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n', 'INSERT the order', 'EVAL release-lock: DEL only if the value is still <token>'],
      scripts: [{ name: LUA_SCRIPTS.releaseLock.fileName, language: 'lua', source: LUA_SCRIPTS.releaseLock.lua }],
    };
  }
}
