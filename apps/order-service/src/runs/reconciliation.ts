import type { InventoryView, LockEvent, Reconciliation } from '@oversell/contracts';

/**
 * Mutual-exclusion violations in a history of lock holdings, checked the way Jepsen checks a
 * lock-guarded read-modify-write: per lock key, order the holdings by acquisition and count every
 * holding that began before an earlier one had been released. Times come from one machine's clock;
 * the release is stamped before it is sent and the acquisition after it is granted, so a correct lock
 * never produces an overlap here beyond the processes' clock disagreement.
 */
/**
 * How much two processes' clocks may disagree (see preciseNow): a holding must begin more than this
 * before an earlier one ended to count. Real overlaps of an expired lease last as long as the business
 * that outlived it, milliseconds to seconds; clock disagreement is below a few hundred microseconds.
 */
export const CLOCK_TOLERANCE_MS = 1;

export function countExclusionViolations(events: readonly LockEvent[]): number {
  const byKey = new Map<string, LockEvent[]>();
  for (const event of events) {
    const list = byKey.get(event.lockKey);
    if (list) list.push(event);
    else byKey.set(event.lockKey, [event]);
  }
  let violations = 0;
  for (const holdings of byKey.values()) {
    // On equal acquisition times the one released first goes first: it cannot have overlapped the other.
    holdings.sort((a, b) => a.acquiredAt - b.acquiredAt || a.releasedAt - b.releasedAt);
    let heldUntil = -Infinity;
    for (const holding of holdings) {
      if (holding.acquiredAt < heldUntil - CLOCK_TOLERANCE_MS) violations++;
      heldUntil = Math.max(heldUntil, holding.releasedAt);
    }
  }
  return violations;
}

/**
 * Initial stock against what the store has left and what MySQL orders say was sold. `lost` counts
 * units neither sold nor available (taken from the store with no order), plus units ordered that the
 * store never gave (the lost updates of an unguarded read-modify-write).
 */
export function reconcile(inventory: InventoryView, lockEvents: readonly LockEvent[]): Reconciliation {
  // A counter left below 0 (an overdraft never put back) has nothing to sell; what it reads below 0 was never stock.
  const takenFromStore = inventory.initialStock - Math.max(0, inventory.remaining);
  return {
    initialStock: inventory.initialStock,
    remaining: inventory.remaining,
    sold: inventory.sold,
    orders: inventory.orders,
    oversold: inventory.oversold,
    lost: Math.abs(takenFromStore - inventory.sold),
    exclusionViolations: countExclusionViolations(lockEvents),
    storesAgree: inventory.storesAgree,
  };
}
