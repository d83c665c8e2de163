import { auditStockMoves } from './audit-stock-moves';

const moves = (entries: Record<string, { takes: number[]; givenBack?: number }>) => new Map(Object.entries(entries).map(([id, m]) => [id, { takes: m.takes, givenBack: m.givenBack ?? 0 }]));

describe('auditStockMoves', () => {
  it('settles a take given back, and lists an order whose request took nothing', () => {
    const audit = auditStockMoves(moves({ a: { takes: [2] }, b: { takes: [1], givenBack: 1 } }), new Map([['a', 2], ['c', 3]]));
    expect(audit).toEqual({
      requests: 2,
      unitsTaken: 2,
      unitsWithoutOrder: 0,
      takenTwice: { count: 0, units: 0, first: [] },
      takenWithoutOrder: { count: 0, units: 0, first: [] },
      orderedWithoutTake: { count: 1, units: 3, first: ['c'] },
    });
  });

  it('shows the first five ids, sorted, and counts them all', () => {
    const taken = Object.fromEntries(['f', 'b', 'e', 'a', 'g', 'c', 'd'].map((id) => [id, { takes: [1] }]));
    expect(auditStockMoves(moves(taken), new Map()).takenWithoutOrder).toEqual({ count: 7, units: 7, first: ['a', 'b', 'c', 'd', 'e'] });
  });
});
