import { ExecutionError, Redlock, ResourceLockedError, type Lock } from '@sesamecare-oss/redlock';
import type Redis from 'ioredis';
import { preciseNow } from '../clock';
import type { DistributedLock, ReleaseResult } from '../distributed-lock';
import { LockError, LockUnavailableError } from '../errors';
import { holdingOf } from '../holding';

/** The holding's signal reason: the library's expiration (start + TTL − drift) has passed. */
export class RedlockLibExpiredError extends LockError {
  constructor(readonly key: string) {
    super(`redlock-lib ${key}: the lock's expiration has passed`);
  }
}

/**
 * The maintained RedLock of npm, @sesamecare-oss/redlock (node-redlock for ioredis 5), behind our
 * DistributedLock as the reference for our own (../redlock): the same N masters (clients from
 * connectRedisNodes), its defaults otherwise (but a release is sent once, see release below). Acquire
 * runs a Lua `EXISTS` then `SET value PX ttl` on every node and is decided as soon as a majority voted
 * either way; a failed attempt keeps the keys it set and retries with the same value after 200 ± 100
 * ms, waitMs / 200 times, releasing them only when it gives up. Its script refuses a node where the key
 * exists, the caller's own leftover key included, so once waiters split the votes nobody reaches a
 * majority until those keys expire (redis.io asks a failed client to unlock every instance first;
 * our redlock does). It names the holder itself (16 random bytes), so options.token is not used. Used
 * through acquire/release, so nothing extends the lease.
 *
 * Differs from ours, and the holding says so honestly: it computes the expiration (start + TTL − 1 %
 * − 2 ms) but does not refuse a grant whose acquire took longer than that, so the holding's leaseMs
 * may be 0 and its signal then fires at once. When the last attempt had fewer than a majority of
 * nodes answering at all (errors other than "taken"), acquire throws LockUnavailableError. Fails as
 * RedLock does (see ../redlock): no fencing token, timing assumptions, a node restarted empty.
 */
export function redlockLib(nodes: readonly Redis[]): DistributedLock {
  const redlock = new Redlock([...nodes]);
  const quorum = Math.floor(nodes.length / 2) + 1;
  return {
    name: 'redlock-lib',
    async acquire(key, { waitMs, leaseMs }) {
      let lock: Lock;
      try {
        lock = await redlock.acquire([key], leaseMs, { retryCount: Math.floor(waitMs / redlock.settings.retryDelay) });
      } catch (error) {
        if (error instanceof ExecutionError) return unavailableOrNull(key, error, quorum);
        throw error;
      }
      const acquiredAt = preciseNow();
      const validity = Math.max(0, lock.expiration - Date.now());
      const lost = new AbortController();
      const expiry = setTimeout(() => lost.abort(new RedlockLibExpiredError(key)), validity);
      expiry.unref();
      return holdingOf({
        key,
        token: lock.value,
        acquiredAt,
        leaseMs: validity,
        signal: lost.signal,
        validUntil: acquiredAt + validity,
        release: async (): Promise<ReleaseResult> => {
          clearTimeout(expiry);
          try {
            // Sent once. With the library's default retries, a release that finds its keys expired (no
            // majority to delete) is sent 10 more times, 200 ms apart: 2 s before the holder hears false
            // (node-redlock#313). The keys expire by themselves; a retry tells nothing more.
            await redlock.release(lock, { retryCount: 0 });
            return true;
          } catch (error) {
            if (!(error instanceof ExecutionError)) throw error;
            // No majority deleted it: the lease had run out there (false), or the nodes are unreachable (throws).
            return unavailableOrNull(key, error, quorum).then(() => false);
          }
        },
      });
    },
  };
}

/** Its ExecutionError means "no majority"; the last attempt's votes tell busy (null) from unreachable (throws). */
async function unavailableOrNull(key: string, error: ExecutionError, quorum: number): Promise<null> {
  const last = await error.attempts.at(-1);
  if (!last) return null;
  const unreachable = [...last.votesAgainst.values()].filter((vote) => !(vote instanceof ResourceLockedError));
  const answered = last.membershipSize - unreachable.length;
  if (answered < quorum) throw new LockUnavailableError(key, answered, quorum, unreachable[0]);
  return null;
}
