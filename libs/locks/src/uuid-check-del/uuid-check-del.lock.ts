import type Redis from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { spinLock } from '../spin-lock';

/**
 * `SET key <owner token> NX PX lease` to take; to let go, `GET key`, compare the value with the token
 * in the client, and `DEL key` if it matched: the owner check the articles add to the naive lock,
 * sent as two commands instead of one script.
 *
 * Guarantees: a holder whose lease ran out before its release never deletes the lock (the GET shows
 * someone else's token, or none). Mutual exclusion while every holder finishes within the lease,
 * release included.
 * Fails: the check and the delete are not atomic. If the lease runs out between the GET and the DEL
 * (a GC pause, a slow network, a scheduler stall) and another holder takes the lock meanwhile, the DEL
 * deletes that holder's lock, and a third one is let in while the second is still inside. The release
 * then still answers true: it judged ownership at the GET, not at the DEL. Nothing extends the lease,
 * so a holder slower than its lease is also granted away (uuid-lua's double grant).
 */
export function uuidCheckDelLock(redis: Redis): DistributedLock {
  return spinLock('uuid-check-del', {
    tryAcquire: async (key, token, leaseMs) => (await redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK',
    release: async (key, token, _leaseMs, hooks) => {
      if ((await redis.get(key)) !== token) return false;
      await hooks.at('release-checked-before-del');
      await redis.del(key);
      return true;
    },
  });
}
