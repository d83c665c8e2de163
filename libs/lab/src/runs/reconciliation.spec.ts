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
    lost: 0,
    lostUpdates: 0,
    soldTwice: Math.max(0, sold - initialStock),
    settledLate: { pending: 0, kept: 0, givenBack: 0 },
    moves: null,
    storeLost: false,
  });

  it('carries the inventory\'s books: lost, lost updates and the moves by request id', () => {
    const moves = { requests: 6, unitsTaken: 7, unitsWithoutOrder: 2, takenTwice: { count: 1, units: 1, first: ['a'] }, takenWithoutOrder: { count: 1, units: 1, first: ['b'] }, orderedWithoutTake: { count: 0, units: 0, first: [] } };
    expect(reconcile({ ...inventory(10, 5, 5), lost: 2, lostUpdates: 2, moves, storesAgree: false }, [], 0)).toMatchObject({ lost: 2, lostUpdates: 2, moves, storesAgree: false });
  });

  it('says when the store lost its keys, so its 0 remaining is not read as stock taken', () => {
    expect(reconcile({ ...inventory(100, 0, 40), storeLost: true }, [], 0)).toMatchObject({ storeLost: true, storesAgree: false });
    expect(reconcile(inventory(100, 60, 40), [], 0).storeLost).toBe(false);
  });

  it('counts exclusion violations by the rule the lock timeline draws: a grant within the clock tolerance of a release is none', () => {
    const touching = [holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS / 2, 20), holding('a', 20, 30)];
    expect(reconcile(inventory(3, 0, 3), touching, 0).exclusionViolations).toBe(0);
    const overlapping = [holding('a', 0, 10), holding('a', 5, 20), holding('b', 5, 20)];
    expect(reconcile(inventory(3, 0, 3), overlapping, 0).exclusionViolations).toBe(1);
  });
});
