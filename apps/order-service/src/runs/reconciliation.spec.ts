import { CLOCK_TOLERANCE_MS, type InventoryView, type LockEvent } from '@oversell/contracts';
import { reconcile } from './reconciliation';

const holding = (lockKey: string, acquiredAt: number, releasedAt: number): LockEvent => ({
  lockKey,
  instance: 'i1',
  requestId: `${lockKey}-${acquiredAt}`,
  requestedAt: acquiredAt,
  acquiredAt,
  releasedAt,
  expired: false,
});

describe('reconcile', () => {
  const inventory = (initialStock: number, remaining: number, sold: number): InventoryView => ({
    productId: 1,
    runId: 'r',
    strategy: 'no-lock',
    initialStock,
    lockTtlMs: 2000,
    businessDelayMs: 0,
    remaining,
    sold,
    orders: sold,
    oversold: Math.max(0, sold - initialStock),
    storesAgree: remaining + sold === initialStock,
    storeLost: false,
  });

  it('reports nothing lost when store and orders agree', () => {
    expect(reconcile(inventory(100, 0, 100), [], 0)).toMatchObject({ lost: 0, oversold: 0, storesAgree: true });
  });

  it('counts lost updates: 240 units ordered while the store only gave 3', () => {
    expect(reconcile(inventory(100, 97, 240), [], 0)).toMatchObject({ lost: 237, oversold: 140, storesAgree: false });
  });

  it('says when the store lost its keys, so its 0 remaining is not read as stock taken', () => {
    expect(reconcile({ ...inventory(100, 0, 40), storeLost: true }, [], 0)).toMatchObject({ storeLost: true, storesAgree: false });
    expect(reconcile(inventory(100, 60, 40), [], 0).storeLost).toBe(false);
  });

  it('counts units taken with no order', () => {
    expect(reconcile(inventory(100, 10, 88), [], 0)).toMatchObject({ lost: 2, oversold: 0 });
  });

  it('counts the units a counter left below 0 strands, not the overdraft itself: 1 in stock, an order for 2 died before putting them back', () => {
    expect(reconcile(inventory(1, -1, 0), [], 0)).toMatchObject({ remaining: -1, lost: 1, oversold: 0, storesAgree: false });
  });

  it('counts exclusion violations by the rule the lock timeline draws: a grant within the clock tolerance of a release is none', () => {
    const touching = [holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS / 2, 20), holding('a', 20, 30)];
    expect(reconcile(inventory(3, 0, 3), touching, 0).exclusionViolations).toBe(0);
    const overlapping = [holding('a', 0, 10), holding('a', 5, 20), holding('b', 5, 20)];
    expect(reconcile(inventory(3, 0, 3), overlapping, 0).exclusionViolations).toBe(1);
  });
});
