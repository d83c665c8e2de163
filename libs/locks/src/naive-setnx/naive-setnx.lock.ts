import type Redis from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { spinLock } from '../spin-lock';

const LOCKED = '1';

/**
 * `SET key 1 NX PX lease` to take, plain `DEL key` to let go.
 *
 * Guarantees: mutual exclusion while every holder finishes within the lease; a dead holder's lock
 * frees itself when the lease runs out.
 * Fails: the value says nothing about who holds the lock. A holder whose lease ran out during a long
 * critical section DELs the lock of whoever took it next, letting a third holder in while the second
 * is still inside. Its release cannot tell whether it still owned the lock ('unknown').
 */
export function naiveSetnxLock(redis: Redis): DistributedLock {
  return spinLock('naive-setnx', {
    tryAcquire: async (key, _token, leaseMs) => (await redis.set(key, LOCKED, 'PX', leaseMs, 'NX')) === 'OK',
    release: async (key) => {
      await redis.del(key);
      return 'unknown';
    },
  });
}
