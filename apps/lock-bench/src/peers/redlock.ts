import { holdingOf, preciseNow, type DistributedLock } from '@oversell/locks';
import { ExecutionError, Redlock, type Lock } from '@sesamecare-oss/redlock';
import type Redis from 'ioredis';

/**
 * @sesamecare-oss/redlock (node-redlock rewritten for ioredis 5) on one Redis, with its defaults:
 * acquire runs a Lua `EXISTS` / `SET value PX lease` and, when the key is taken, retries after
 * 200 ± 100 ms; release is a compare-and-delete. Used through acquire/release (its README's second
 * form), so nothing extends the lease. Its retry count bounds the wait: waitMs / retryDelay attempts.
 * It names the holder itself (random 16 bytes), so options.token is not used.
 */
export function redlockLock(redis: Redis): DistributedLock {
  const redlock = new Redlock([redis]);
  return {
    name: 'redlock',
    async acquire(key, { waitMs, leaseMs }) {
      let lock: Lock;
      try {
        lock = await redlock.acquire([key], leaseMs, { retryCount: Math.floor(waitMs / redlock.settings.retryDelay) });
      } catch (error) {
        // Its way of saying "not had within the retries".
        if (error instanceof ExecutionError) return null;
        throw error;
      }
      return holdingOf({
        key,
        token: lock.value,
        acquiredAt: preciseNow(),
        leaseMs,
        release: async () => {
          try {
            await lock.release();
            return true;
          } catch (error) {
            // The compare-and-delete found another value (or none) on every retry: the lease had run out.
            if (error instanceof ExecutionError) return false;
            throw error;
          }
        },
      });
    },
  };
}
