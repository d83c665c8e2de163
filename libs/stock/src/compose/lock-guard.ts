import type { StrategyName } from '@oversell/contracts';
import { observeLock, preciseNow, type DistributedLock, type LockHolding } from '@oversell/locks';
import type { DeductContext, DeductResult } from '../stock-strategy';
import type { StrategyDeps } from './strategy-definition';

/** A renewing lock's renewals noted per holding: the first few show it renewing; the rest would crowd out the section's own steps. */
const RENEWALS_NOTED = 3;

/**
 * Runs a critical section while holding a lock: lock_timeout when the lock was not had within the
 * wait, the `lock-acquired` fault point once it was, and every holding reported as a lock event of the
 * order's run and as steps of its trace (requested, granted, renewed, lost, the lease's end, released).
 * Any lock of @oversell/locks fits.
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
    const { faults } = context;
    // Where the lease stood last: the grant, then each renewal; it runs out one lease after that.
    let extendedAt: number | undefined;
    const observed = observeLock(this.lock, (report) => {
      this.deps.lockEvents.emit(context.settings.runId, this.strategy, {
        lockKey: report.key,
        instance: instanceId,
        requestId: context.requestId,
        requestedAt: report.requestedAt,
        acquiredAt: report.acquiredAt,
        releasedAt: report.releasedAt,
        expired: report.expired,
      });
      // The lease's end is drawn where it fell, under the holder, before the release that found it gone.
      if (report.expired) faults.note({ target: 'expiry', action: 'lease ran out', at: (extendedAt ?? report.acquiredAt) + context.settings.lockTtlMs });
      faults.note({ target: 'lock', action: 'released', value: String(report.released), at: report.releasedAt, ...(report.expired ? { note: 'expired' } : {}) });
    });
    faults.note({ target: 'lock', action: 'requested' });
    const holding = await observed.acquire(key, {
      waitMs,
      leaseMs: context.settings.lockTtlMs,
      token: `${instanceId}:${context.requestId}`,
      hooks: context.faults,
    });
    if (!holding) {
      faults.note({ target: 'lock', action: 'timed out', value: waitMs });
      return { outcome: 'lock_timeout' };
    }
    faults.note({ target: 'lock', action: 'granted', value: holding.leaseMs, at: holding.acquiredAt, ...(holding.fencingToken === undefined ? {} : { note: `fence:${holding.fencingToken}` }) });
    extendedAt = holding.acquiredAt;
    // A lock that learns it lost the lock (a failed renewal) says so while the section runs.
    const lost = () => faults.note({ target: 'lock', action: 'lease lost' });
    let renewals = 0;
    const renewed = () => {
      extendedAt = preciseNow();
      if (++renewals <= RENEWALS_NOTED) faults.note({ target: 'lock', action: 'renewed', value: holding.leaseMs, at: extendedAt });
    };
    holding.signal.addEventListener('abort', lost, { once: true });
    holding.renewals?.addEventListener('renewed', renewed);
    try {
      await context.faults.at('lock-acquired');
      return await section(holding);
    } finally {
      holding.signal.removeEventListener('abort', lost);
      holding.renewals?.removeEventListener('renewed', renewed);
      // A failed release (Redis gone) must not turn a sale that was recorded into an error: the lease
      // still runs out by itself, and the lock event says whether it was still ours.
      await holding.release().catch(() => 'unknown');
    }
  }
}
