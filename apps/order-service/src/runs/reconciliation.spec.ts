import type { InventoryView, LockEvent } from '@oversell/contracts';
import { CLOCK_TOLERANCE_MS, countExclusionViolations, reconcile } from './reconciliation';

const holding = (lockKey: string, acquiredAt: number, releasedAt: number): LockEvent => ({
  lockKey,
  instance: 'i1',
  requestId: `${lockKey}-${acquiredAt}`,
  requestedAt: acquiredAt,
  acquiredAt,
  releasedAt,
  expired: false,
});

describe('countExclusionViolations', () => {
  it('finds none in back-to-back holdings, even when one starts the millisecond another ends', () => {
    expect(countExclusionViolations([holding('a', 0, 10), holding('a', 10, 20), holding('a', 25, 30)])).toBe(0);
  });

  it('counts each holding that began while an earlier one was still held', () => {
    // 5 starts inside [0,10); 8 starts inside [0,10) too; 12 starts inside [5,15).
    expect(countExclusionViolations([holding('a', 0, 10), holding('a', 5, 15), holding('a', 8, 9), holding('a', 12, 13)])).toBe(3);
  });

  it('allows for the processes\' clock disagreement, no more', () => {
    expect(countExclusionViolations([holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS / 2, 20)])).toBe(0);
    expect(countExclusionViolations([holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS * 2, 20)])).toBe(1);
  });

  it('does not mistake a holding that began and ended at the same instant another began for an overlap', () => {
    expect(countExclusionViolations([holding('a', 5, 9), holding('a', 5, 5)])).toBe(0);
  });

  it('keeps lock keys apart: segments held at the same time are not a violation', () => {
    expect(countExclusionViolations([holding('seg:0', 0, 10), holding('seg:1', 2, 8)])).toBe(0);
  });
});

describe('reconcile', () => {
  const inventory = (initialStock: number, remaining: number, sold: number): InventoryView => ({
    productId: 1,
    runId: 'r',
    strategy: 'no-lock',
    initialStock,
    remaining,
    sold,
    orders: sold,
    oversold: Math.max(0, sold - initialStock),
    storesAgree: remaining + sold === initialStock,
  });

  it('reports nothing lost when store and orders agree', () => {
    expect(reconcile(inventory(100, 0, 100), [])).toMatchObject({ lost: 0, oversold: 0, storesAgree: true });
  });

  it('counts lost updates: 240 units ordered while the store only gave 3', () => {
    expect(reconcile(inventory(100, 97, 240), [])).toMatchObject({ lost: 237, oversold: 140, storesAgree: false });
  });

  it('counts units taken with no order', () => {
    expect(reconcile(inventory(100, 10, 88), [])).toMatchObject({ lost: 2, oversold: 0 });
  });

  it('counts the units a counter left below 0 strands, not the overdraft itself: 1 in stock, an order for 2 died before putting them back', () => {
    expect(reconcile(inventory(1, -1, 0), [])).toMatchObject({ remaining: -1, lost: 1, oversold: 0, storesAgree: false });
  });
});
