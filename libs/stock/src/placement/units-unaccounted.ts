import type { StockMovesAudit } from '@oversell/contracts';

/**
 * Units gone for good (lost) and units sold twice by writes that overwrote each other (lostUpdates).
 * With moves, the store's drop is checked against the takes noted (a counter below 0 counts in full:
 * the overdraft was noted as a take). Without (a MySQL row, which writes stock and order together),
 * against the units sold, where a counter below 0 has nothing to give.
 */
export function unitsUnaccounted(initialStock: number, remaining: number, sold: number, moves: StockMovesAudit | null): { lost: number; lostUpdates: number } {
  if (!moves) {
    const takenFromStore = initialStock - Math.max(0, remaining);
    return { lost: Math.max(0, takenFromStore - sold), lostUpdates: Math.max(0, sold - takenFromStore) };
  }
  const storeWentDown = initialStock - remaining;
  return { lost: moves.unitsWithoutOrder + Math.max(0, storeWentDown - moves.unitsTaken), lostUpdates: Math.max(0, moves.unitsTaken - storeWentDown) };
}
