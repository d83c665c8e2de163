import type Redis from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { spinLock } from '../spin-lock';

/**
 * `SETNX key <token>`, then `PEXPIRE key lease` as a second command, to take; plain `DEL key` to let
 * go: the articles' fix for the lock without a TTL, before `SET … NX PX` made it one command.
 *
 * Guarantees: mutual exclusion while every holder finishes within the lease; a holder that dies after
 * the PEXPIRE loses the lock when the lease runs out.
 * Fails: taking the lock is two commands. A holder that dies between them (the 'lock-set-before-expire'
 * point: killed, crashed, its connection lost) leaves a lock with no TTL, held forever: every later
 * acquire times out (deadlock) until someone deletes the key. It also has naive-setnx's lease pitfall:
 * a holder slower than its lease DELs the lock of whoever took it next, letting a third holder in. Its
 * release cannot tell whether it still owned the lock ('unknown').
 */
export function setnxExpireLock(redis: Redis): DistributedLock {
  return spinLock('setnx-expire', {
    tryAcquire: async (key, token, leaseMs, hooks) => {
      if ((await redis.setnx(key, token)) !== 1) return false;
      await hooks.at('lock-set-before-expire');
      await redis.pexpire(key, leaseMs);
      return true;
    },
    release: async (key) => {
      await redis.del(key);
      return 'unknown';
    },
  });
}
