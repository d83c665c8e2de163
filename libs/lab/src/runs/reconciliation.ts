import { findExclusionViolations, type InventoryView, type Reconciliation } from '@oversell/contracts';
import type { Holding } from '../figures/lock-history';

/**
 * The inventory's books after the run (what the store has left, what MySQL orders say was sold, the
 * store's moves by request id, and what was lost or sold twice) with the lock overlap check. The overlap
 * check runs over the holdings kept; `lockEventsDropped` says how many were not.
 */
export function reconcile(inventory: InventoryView, holdings: readonly Holding[], lockEventsDropped: number): Reconciliation {
  return {
    initialStock: inventory.initialStock,
    remaining: inventory.remaining,
    sold: inventory.sold,
    orders: inventory.orders,
    oversold: inventory.oversold,
    lost: inventory.lost,
    lostUpdates: inventory.lostUpdates,
    moves: inventory.moves,
    exclusionViolations: findExclusionViolations(holdings).length,
    lockEventsDropped,
    storesAgree: inventory.storesAgree,
    storeLost: inventory.storeLost,
    settledLate: inventory.settledLate,
  };
}
