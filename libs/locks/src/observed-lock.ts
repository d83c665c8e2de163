import { preciseNow } from './clock';
import type { AcquireOptions, DistributedLock, LockHolding, ReleaseResult } from './distributed-lock';

/** One holding from request to release, as a lock timeline draws it. */
export interface HoldingReport {
  lock: string;
  key: string;
  token: string;
  requestedAt: number;
  acquiredAt: number;
  releasedAt: number;
  /** The lease ran out under the holder (its release found the lock gone, or took longer than the lease). */
  expired: boolean;
  /** What the release answered: whether the lock was still the holder's ('unknown' for a plain DEL, or a release that failed). */
  released: ReleaseResult;
}

/**
 * Wraps a lock so that every holding is reported when it ends, whatever lock it is: the events are
 * composed around the lock, not built into each one.
 */
export function observeLock(lock: DistributedLock, report: (holding: HoldingReport) => void): DistributedLock {
  return {
    name: lock.name,
    async acquire(key: string, options: AcquireOptions): Promise<LockHolding | null> {
      const requestedAt = preciseNow();
      const holding = await lock.acquire(key, options);
      if (!holding) return null;
      const done = (releasedAt: number, result: ReleaseResult) =>
        report({
          lock: lock.name,
          key,
          token: holding.token,
          requestedAt,
          acquiredAt: holding.acquiredAt,
          releasedAt,
          expired: result === 'unknown' ? releasedAt - holding.acquiredAt > holding.leaseMs : !result,
          released: result,
        });
      return {
        ...holding,
        release: async () => {
          // Stamped before the release is sent: a correct lock cannot be granted to anyone before this
          // moment, so a later holder's acquiredAt below it is a real overlap, not clock noise.
          const releasedAt = preciseNow();
          try {
            const result = await holding.release();
            done(releasedAt, result);
            return result;
          } catch (error) {
            done(releasedAt, 'unknown');
            throw error;
          }
        },
      };
    },
  };
}
