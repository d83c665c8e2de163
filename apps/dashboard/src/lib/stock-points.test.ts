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
});
