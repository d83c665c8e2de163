import { findExclusionViolations, type InventoryView, type LockEvent, type Reconciliation } from '@oversell/contracts';

/**
 * Initial stock against what the store has left and what MySQL orders say was sold. `lost` counts
 * units neither sold nor available (taken from the store with no order), plus units ordered that the
 * store never gave (the lost updates of an unguarded read-modify-write). The overlap check runs over
 * the holdings kept; `lockEventsDropped` says how many were not.
 */
export function reconcile(inventory: InventoryView, lockEvents: readonly LockEvent[], lockEventsDropped: number): Reconciliation {
  // A counter left below 0 (an overdraft never put back) has nothing to sell; what it reads below 0 was never stock.
  const takenFromStore = inventory.initialStock - Math.max(0, inventory.remaining);
  return {
    initialStock: inventory.initialStock,
    remaining: inventory.remaining,
    sold: inventory.sold,
    orders: inventory.orders,
    oversold: inventory.oversold,
    lost: Math.abs(takenFromStore - inventory.sold),
    exclusionViolations: findExclusionViolations(lockEvents).length,
    lockEventsDropped,
    storesAgree: inventory.storesAgree,
    storeLost: inventory.storeLost,
  };
}
