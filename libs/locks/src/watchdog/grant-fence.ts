import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import type { LockHolding } from '../distributed-lock';
import { loadLuaScript, useScripts } from '../lua-script';

export const WATCHDOG_FENCE = loadLuaScript(__dirname, 'watchdog-fence-2.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    watchdogFenceV1(lockKey: string, fenceKey: string, owner: string): Result<number | null, Context>;
  }
}

/** The key that counts a lock's grants, beside the lock (same hash tag, so one slot). */
export function fenceKeyOf(lockKey: string): string {
  return `${lockKey}:fence`;
}

/**
 * The fencing counter of the fenced watchdog (Kleppmann's fencing tokens).
 * Guarantees: every grant carries a token (LockHolding.fencingToken) larger than every token granted
 * before it on that key, so a store that remembers the highest token it has seen and refuses lower
 * ones refuses the writes of a holder that lost the lock without knowing.
 * Does not: keep two holders apart any better than the plain watchdog. A stop-the-world pause longer
 * than the lease still lets a second holder in while the first believes it holds the lock; only a
 * store that checks the token stops the stale holder's writes. A store that does not check it is as
 * unsafe as under the plain watchdog.
 *
 * Once the watchdog has granted the lock, one script checks the grant is still the caller's and INCRs
 * the counter: a token is only issued to the current owner, so tokens follow the order of the grants.
 * A holder that lost the lock between the grant and the script gets no token: it lets go, and the
 * acquisition answers null, as if the lock was not had.
 */
export class GrantFence {
  constructor(private readonly redis: Redis) {
    useScripts(redis, [WATCHDOG_FENCE]);
  }

  async number(holding: LockHolding): Promise<LockHolding | null> {
    let fencingToken: number | null;
    try {
      fencingToken = await this.redis.watchdogFenceV1(holding.key, fenceKeyOf(holding.key), holding.token);
    } catch (error) {
      await holding.release().catch(() => undefined);
      throw error;
    }
    if (fencingToken !== null) return { ...holding, fencingToken };
    await holding.release().catch(() => undefined);
    return null;
  }
}
