import type Redis from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { spinLock } from '../spin-lock';

const LOCKED = '1';

/**
 * `SETNX key 1` to take, plain `DEL key` to let go, and no expiry at all: the first lock the articles
 * show, before they add a TTL.
 *
 * Guarantees: mutual exclusion for as long as every holder lives to release, however long it stays
 * inside (nothing expires under it).
 * Fails: a holder that dies inside (killed, crashed, its connection lost before the DEL) leaves the
 * lock behind forever. Every later acquire spins until its wait runs out (deadlock) until someone
 * deletes the key by hand. The value says nothing about who holds the lock, and its release cannot
 * tell whether it still owned it ('unknown').
 */
export function setnxNoTtlLock(redis: Redis): DistributedLock {
  const spinning = spinLock('setnx-no-ttl', {
    tryAcquire: async (key) => (await redis.setnx(key, LOCKED)) === 1,
    release: async (key) => {
      await redis.del(key);
      return 'unknown';
    },
  });
  return {
    name: spinning.name,
    // No lease: a holding lasts as long as its holder, so no holding is ever reported as expired.
    acquire: (key, options) => spinning.acquire(key, { ...options, leaseMs: Infinity }),
  };
}
