import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { loadLuaScript, useScripts } from '../lua-script';
import { spinLock } from '../spin-lock';

export const RELEASE_LOCK = loadLuaScript(__dirname, 'release-lock-1.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    releaseLockV1(lockKey: string, token: string): Result<number, Context>;
  }
}

/**
 * `SET key <owner token> NX PX lease` to take, a Lua compare-and-delete (release-lock-1.lua) to let go.
 *
 * Guarantees: a holder never deletes a lock it no longer owns, and its release says whether it still
 * owned it. Mutual exclusion while every holder finishes within the lease.
 * Fails: nothing extends the lease. A holder slower than its lease loses the lock without knowing;
 * the next holder is granted it while the first is still inside (double grant).
 */
export function uuidLuaLock(redis: Redis): DistributedLock {
  useScripts(redis, [RELEASE_LOCK]);
  return spinLock('uuid-lua', {
    tryAcquire: async (key, token, leaseMs) => (await redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK',
    release: async (key, token) => (await redis.releaseLockV1(key, token)) === 1,
  });
}
