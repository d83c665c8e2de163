import type Redis from 'ioredis';
import { readCheckWrite } from '../redis/redis-stock';
import { RedisStockStrategy } from '../redis/redis-stock-strategy';
import type { StockOptions } from '../stock.options';
import type { DeductContext, DeductResult } from '../stock-strategy';
import { preciseNow } from './clock';
import type { LockEvents } from './lock-events';

/** One holding of a lock by one order attempt. */
export interface LockHolding {
  key: string;
  /** The value that identifies this holder (constant for the naive lock, unique for the others). */
  token: string;
  acquiredAt: number;
  ttlMs: number;
  /** Raised when the holder learns it lost the lock (only the watchdog can know). */
  signal?: AbortSignal;
}

/**
 * Whether the holder still owned the lock when it let go: false means the lease had run out and
 * someone else may have been inside too; 'unknown' for locks that cannot tell (plain DEL).
 */
export type ReleaseVerdict = boolean | 'unknown';

/**
 * The family base (Redisson's RedissonBaseLock in spirit): it owns the critical section around the
 * Redis stock key, the lock-event reporting and the wait timeout; a variant says only how to acquire
 * and how to release.
 */
export abstract class LockBasedStrategy extends RedisStockStrategy {
  protected constructor(
    redis: Redis,
    options: StockOptions,
    private readonly lockEvents: LockEvents,
  ) {
    super(redis, options);
  }

  /** Waits up to waitMs for the lock; null when it was not free in time. */
  protected abstract acquire(key: string, context: DeductContext, waitMs: number): Promise<LockHolding | null>;
  protected abstract release(holding: LockHolding): Promise<ReleaseVerdict>;

  deduct(context: DeductContext): Promise<DeductResult> {
    const keys = this.keys(context.settings);
    return this.withLock(keys.lock, context, (holding) => readCheckWrite(this.redis, keys.stock, context, holding.signal));
  }

  /** Runs the section while holding the lock; lock_timeout when the lock was not had within waitMs. */
  protected async withLock(
    key: string,
    context: DeductContext,
    section: (holding: LockHolding) => Promise<DeductResult>,
    waitMs = this.options.lockWaitTimeoutMs,
  ): Promise<DeductResult> {
    const requestedAt = preciseNow();
    const holding = await this.acquire(key, context, waitMs);
    if (!holding) return { outcome: 'lock_timeout' };
    let releasedAt = 0;
    try {
      await context.faults.at('lock-acquired');
      return await section(holding);
    } finally {
      // Stamped before the release is sent: a correct lock cannot be granted to anyone before this moment,
      // so a later holder's acquiredAt below it is a real overlap, not clock noise.
      releasedAt = preciseNow();
      // A failed release (Redis gone) must not turn a sale that was recorded into an error: the lease
      // still runs out by itself, and whether it was still ours is unknown.
      const verdict = await this.release(holding).catch((): ReleaseVerdict => 'unknown');
      const expired = verdict === 'unknown' ? releasedAt - holding.acquiredAt > holding.ttlMs : !verdict;
      this.lockEvents.emit(context.settings.runId, this.name, {
        lockKey: key,
        instance: this.options.instanceId,
        requestId: context.requestId,
        requestedAt,
        acquiredAt: holding.acquiredAt,
        releasedAt,
        expired,
      });
    }
  }
}
