import type Redis from 'ioredis';
import type { DistributedLock, LockHooks } from '../distributed-lock';
import { spinLock } from '../spin-lock';

export interface SetnxGetsetOptions {
  /** This process's clock, in ms: what it stamps into the lock and judges other stamps by (the acquire's hooks.now, when given, wins). */
  now?: () => number;
}

/**
 * The timestamp lock of the old redis.io SETNX page ("Handling deadlocks"), as the articles teach it:
 * the value is the holder's expiry time by its own clock (now + lease); the key itself never expires.
 *
 * Take: `SETNX key <now + lease>` wins. Otherwise `GET key`: a stamp still ahead of this process's clock
 * means the lock is held. A stamp behind it means the holder's lease ran out: `GETSET key <now + lease>`,
 * and the waiter wins only if the old value handed back is the expired stamp it read (otherwise another
 * waiter took over first). Let go: `GETDEL key`, a plain delete of whatever stamp is there, as the
 * articles' DEL; it only also hands back what it deleted, so the release can say whose lock that was.
 *
 * Guarantees: mutual exclusion while every process's clock agrees and every holder finishes within its
 * lease; a dead holder's lock is taken over once its stamp is past.
 * Fails, three ways:
 * 1. Expiry is judged by the waiter's clock against the stamp the holder's clock wrote: a process whose
 *    clock runs ahead by more than the lease sees a live holder's stamp as expired and takes the lock
 *    over. Two holders.
 * 2. Waiters that read the same expired stamp all GETSET: one wins, but each loser has already written
 *    its own stamp over the winner's, so the key no longer says when the winner's lease ends.
 * 3. The release deletes without checking: a holder that outlived its lease deletes the lock of the
 *    waiter that took it over, and a third process SETNXes it while the second is still inside.
 * The release says true only when the key still held this holder's own stamp (false: it had been taken
 * over, and it was deleted all the same). Stamps are whole ms: two holders that stamp the same ms
 * cannot be told apart.
 */
export function setnxGetsetLock(redis: Redis, { now = Date.now }: SetnxGetsetOptions = {}): DistributedLock {
  // The stamp each holding wrote, until its release compares it with what it deleted.
  const stamps = new Map<string, string>();
  const holdingId = (key: string, token: string) => `${key}\n${token}`;

  async function tryAcquire(key: string, leaseMs: number, hooks: LockHooks): Promise<string | null> {
    const clock = () => hooks.now?.() ?? now();
    const stamp = String(clock() + leaseMs);
    if ((await redis.setnx(key, stamp)) === 1) return stamp;
    const read = await redis.get(key);
    if (read === null || Number(read) >= clock()) return null;
    await hooks.at('stamp-read-before-getset');
    const takeover = String(clock() + leaseMs);
    return (await redis.getset(key, takeover)) === read ? takeover : null;
  }

  return spinLock('setnx-getset', {
    tryAcquire: async (key, token, leaseMs, hooks) => {
      const stamp = await tryAcquire(key, leaseMs, hooks);
      if (stamp === null) return false;
      stamps.set(holdingId(key, token), stamp);
      return true;
    },
    release: async (key, token) => {
      const stamp = stamps.get(holdingId(key, token));
      stamps.delete(holdingId(key, token));
      return (await redis.getdel(key)) === stamp;
    },
  });
}
