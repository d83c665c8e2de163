import type { RequestMoves, StockMovesRead } from '../request-moves';
import { auditStockMoves, type RunOrders } from './audit-stock-moves';

type Noted = Record<string, { takes: number[]; left?: number[]; givenBack?: number }>;

/** Moves in the pages given, each a map as the Redis reader yields them. */
function movesIn(...pages: Noted[]): StockMovesRead {
  const maps = pages.map((page) => new Map<string, RequestMoves>(Object.entries(page).map(([id, m]) => [id, { takes: m.takes, left: m.left ?? [], givenBack: m.givenBack ?? 0 }])));
  const seen = new Set<string>();
  return {
    seen,
    async *[Symbol.asyncIterator]() {
      for (const page of maps) {
        for (const id of page.keys()) seen.add(id);
        yield page;
      }
    },
  };
}

/** Orders by request id, read as the MySQL reader reads them: by id, counted, and in pages of two. */
function ordersOf(ordered: Record<string, number>): RunOrders & { pagesRead: number } {
  const all = Object.entries(ordered);
  const orders = {
    pagesRead: 0,
    of: async (ids: readonly string[]) => new Map(all.filter(([id]) => ids.includes(id))),
    count: async () => all.length,
    async *pages() {
      for (let i = 0; i < all.length; i += 2) {
        orders.pagesRead += 1;
        yield new Map(all.slice(i, i + 2));
      }
    },
  };
  return orders;
}

describe('auditStockMoves', () => {
  it('settles a take given back, and lists an order whose request took nothing', async () => {
    const audit = await auditStockMoves(movesIn({ a: { takes: [2] }, b: { takes: [1], givenBack: 1 } }), ordersOf({ a: 2, c: 3 }));
    expect(audit).toEqual({
      requests: 2,
      unitsTaken: 2,
      unitsWithoutOrder: 0,
      takenTwice: { count: 0, units: 0, first: [] },
      takenWithoutOrder: { count: 0, units: 0, first: [] },
      orderedWithoutTake: { count: 1, units: 3, first: ['c'] },
    });
  });

  it('shows the first five ids in sort order across pages, and counts them all', async () => {
    const taken = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, { takes: [1] }]));
    const audit = await auditStockMoves(movesIn(taken(['f', 'b', 'e']), taken(['a', 'g']), taken(['c', 'd'])), ordersOf({}));
    expect(audit.takenWithoutOrder).toEqual({ count: 7, units: 7, first: ['a', 'b', 'c', 'd', 'e'] });
  });

  it('reads the orders again only when some were not met among the moves', async () => {
    const every = ordersOf({ a: 1, b: 1, c: 1 });
    await auditStockMoves(movesIn({ a: { takes: [1] }, b: { takes: [1] } }, { c: { takes: [1] } }), every);
    expect(every.pagesRead).toBe(0);

    const oneMore = ordersOf({ a: 1, b: 1, c: 1, d: 2 });
    const audit = await auditStockMoves(movesIn({ a: { takes: [1] }, b: { takes: [1] } }, { c: { takes: [1] } }), oneMore);
    expect(oneMore.pagesRead).toBe(2);
    expect(audit.orderedWithoutTake).toEqual({ count: 1, units: 2, first: ['d'] });
  });

  it('names the first unit sold twice: the highest stock left by two takes, across pages, leaving out requests that gave back', async () => {
    const moves = () => movesIn({ a: { takes: [1], left: [4] }, b: { takes: [1], left: [2] }, g: { takes: [1], left: [3], givenBack: 1 } }, { c: { takes: [1], left: [4] }, d: { takes: [1], left: [2] }, e: { takes: [1], left: [3] } });
    const orders = ordersOf({ a: 1, b: 1, c: 1, d: 1, e: 1 });
    expect((await auditStockMoves(moves(), orders)).firstSameRead).toEqual({ stockLeft: 4, requestIds: ['a', 'c'] });
    // Segments each leave their own stock: equal values there say nothing.
    expect((await auditStockMoves(moves(), orders, { oneCell: false })).firstSameRead).toBeUndefined();
  });
});
