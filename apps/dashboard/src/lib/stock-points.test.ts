import { describe, expect, it } from 'vitest';
import { point } from '../test/fixtures';
import { stockPoints } from './stock-points';

describe('stockPoints', () => {
  it('starts at the initial stock with nothing sold, and draws each second at its end', () => {
    expect(stockPoints([point(0, { soldTotal: 10, remaining: 40 }), point(1, { soldTotal: 20, remaining: 30 })], 50)).toEqual([
      { t: 0, remaining: 50, soldTotal: 0 },
      { t: 1, remaining: 40, soldTotal: 10 },
      { t: 2, remaining: 30, soldTotal: 20 },
    ]);
  });

  it('is only the starting point before the first second has ended', () => {
    expect(stockPoints([], 100)).toEqual([{ t: 0, remaining: 100, soldTotal: 0 }]);
  });

  it("drops the stale remaining of the drain after the load and ends on the reconciliation's reading of the store", () => {
    const timeline = [0, 1, 2, 3, 4].map((t) => point(t, { soldTotal: 10 * (t + 1), remaining: 40 }));
    const points = stockPoints(timeline, 50, { loadEndSec: 2, finalRemaining: 0 });
    expect(points.map((p) => p.remaining)).toEqual([50, 40, 40, 40, null, null]);
    expect(points.map((p) => p.soldTotal)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(points.at(-1)).toMatchObject({ t: 5, finalRemaining: 0 });
    expect(points.slice(0, -1).every((p) => p.finalRemaining === undefined)).toBe(true);
  });
});
