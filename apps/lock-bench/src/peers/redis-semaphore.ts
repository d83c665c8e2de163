import { holdingOf, preciseNow, type DistributedLock } from '@oversell/locks';
import type Redis from 'ioredis';
import { Mutex } from 'redis-semaphore';

/**
 * redis-semaphore's `Mutex` (its README's first example) behind our DistributedLock, with its defaults:
 * `SET mutex:<key> <uuid> NX PX lease` retried every 10 ms until the acquire timeout, a compare-and-
 * delete Lua release, and a refresh timer that extends the lease every 0.8 of it while held (its
 * onLockLost raises the holding's signal). Its release says nothing of whether it still owned the
 * lock, hence 'unknown'.
 */
export function redisSemaphoreMutex(redis: Redis): DistributedLock {
  return {
    name: 'redis-semaphore',
    async acquire(key, { waitMs, leaseMs, token }) {
      const lost = new AbortController();
      const mutex = new Mutex(redis, key, {
        lockTimeout: leaseMs,
        // Our waitMs 0 means one attempt; the Mutex makes none when its timeout has already passed.
        acquireTimeout: Math.max(1, waitMs),
        identifier: token,
        onLockLost: (error) => lost.abort(error),
      });
      if (!(await mutex.tryAcquire())) return null;
      return holdingOf({
        key,
        token: mutex.identifier,
        acquiredAt: preciseNow(),
        leaseMs,
        signal: lost.signal,
        release: async () => {
          await mutex.release();
          return 'unknown';
        },
      });
    },
  };
}
