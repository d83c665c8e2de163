import type { StrategyName } from '@oversell/contracts';
import { observeLock, type DistributedLock, type LockHolding } from '@oversell/locks';
import type { DeductContext, DeductResult } from '../stock-strategy';
import type { StrategyDeps } from './strategy-definition';

/**
 * Runs a critical section while holding a lock: lock_timeout when the lock was not had within the
 * wait, the `lock-acquired` fault point once it was, and every holding reported as a lock event of the
 * order's run. Any lock of @oversell/locks fits.
 */
export class LockGuard {
  constructor(
    private readonly lock: DistributedLock,
    private readonly strategy: StrategyName,
    private readonly deps: Pick<StrategyDeps, 'options' | 'lockEvents'>,
  ) {}

  async run(
    key: string,
    context: DeductContext,
    section: (holding: LockHolding) => Promise<DeductResult>,
    waitMs = this.deps.options.lockWaitTimeoutMs,
  ): Promise<DeductResult> {
    const { instanceId } = this.deps.options;
    const observed = observeLock(this.lock, (report) =>
      this.deps.lockEvents.emit(context.settings.runId, this.strategy, {
        lockKey: report.key,
        instance: instanceId,
        requestId: context.requestId,
        requestedAt: report.requestedAt,
        acquiredAt: report.acquiredAt,
        releasedAt: report.releasedAt,
        expired: report.expired,
      }),
    );
    const holding = await observed.acquire(key, {
      waitMs,
      leaseMs: context.settings.lockTtlMs,
      token: `${instanceId}:${context.requestId}`,
      hooks: context.faults,
    });
    if (!holding) return { outcome: 'lock_timeout' };
    try {
      await context.faults.at('lock-acquired');
      return await section(holding);
    } finally {
      // A failed release (Redis gone) must not turn a sale that was recorded into an error: the lease
      // still runs out by itself, and the lock event says whether it was still ours.
      await holding.release().catch(() => 'unknown');
    }
  }
}
