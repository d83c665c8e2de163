import type { StockMovesAudit } from '@oversell/contracts';
import { unitsUnaccounted } from './units-unaccounted';

const none = { count: 0, units: 0, first: [] };
const moves = (unitsTaken: number, unitsWithoutOrder = 0): StockMovesAudit => ({
  requests: unitsTaken,
  unitsTaken,
  unitsWithoutOrder,
  takenWithoutOrder: none,
  orderedWithoutTake: none,
  takenTwice: none,
});

describe('unitsUnaccounted', () => {
  it('nothing when store and orders agree', () => {
    expect(unitsUnaccounted(100, 0, 100, moves(100))).toEqual({ lost: 0, lostUpdates: 0 });
    expect(unitsUnaccounted(100, 0, 100, null)).toEqual({ lost: 0, lostUpdates: 0 });
  });

  it('names lost updates as such, not as lost: 240 units ordered and taken while the store went down by 3', () => {
    expect(unitsUnaccounted(100, 97, 240, moves(240))).toEqual({ lost: 0, lostUpdates: 237 });
    expect(unitsUnaccounted(100, 97, 240, null)).toEqual({ lost: 0, lostUpdates: 237 });
  });

  it('counts units taken with no order as lost', () => {
    expect(unitsUnaccounted(100, 10, 88, moves(90, 2))).toEqual({ lost: 2, lostUpdates: 0 });
    expect(unitsUnaccounted(100, 10, 88, null)).toEqual({ lost: 2, lostUpdates: 0 });
  });

  it('sees by id what the totals hide: 2 units lost and 2 sold twice add up to nothing', () => {
    expect(unitsUnaccounted(10, 5, 5, moves(7, 2))).toEqual({ lost: 2, lostUpdates: 2 });
    expect(unitsUnaccounted(10, 5, 5, null)).toEqual({ lost: 0, lostUpdates: 0 });
  });

  it('counts a store drop with no move noted as lost', () => {
    expect(unitsUnaccounted(10, 4, 5, moves(5))).toEqual({ lost: 1, lostUpdates: 0 });
  });

  it('counts the units a counter left below 0 strands, not the overdraft itself: 1 in stock, an order for 2 died before putting them back', () => {
    expect(unitsUnaccounted(1, -1, 0, moves(2, 2))).toEqual({ lost: 2, lostUpdates: 0 });
    expect(unitsUnaccounted(1, -1, 0, null)).toEqual({ lost: 1, lostUpdates: 0 });
  });
});
