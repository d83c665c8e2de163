import type Redis from 'ioredis';
import type { LockHolding, ReleaseVerdict } from './lock-based.strategy';

/** SET key <token> NX PX ttl: the lock is taken by whoever writes first, and says who took it. */
export async function tryAcquireTokenLock(redis: Redis, key: string, token: string, ttlMs: number): Promise<boolean> {
  return (await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK';
}

/** Compare-and-delete in Lua (release-lock-1.lua): true if the lock was still ours. */
export async function releaseTokenLock(redis: Redis, holding: LockHolding): Promise<ReleaseVerdict> {
  return (await redis.releaseLockV1(holding.key, holding.token)) === 1;
}
