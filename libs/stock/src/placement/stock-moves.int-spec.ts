import { useScripts } from '@oversell/locks';
import type { FaultHook } from '../fault-points';
import { WRITE_STOCK } from '../redis/fenced-stock';
import { GIVE_BACK } from '../redis/redis-stock';
import { StockKeys } from '../redis/stock-keys';
import type { RequestMoves } from '../request-moves';
import { StockMovePages } from '../redis/stock-moves';
import { freshProductId, PauseNextOrder, useStockTestApp } from '../testing';

/**
 * The stock's moves by request id against the orders, on the real Redis and MariaDB: the faults below
 * are chosen so the totals agree (5 units gone from the store, 5 units in orders) while one request
 * took twice, one took with no order, and two pairs of orders sold the same unit.
 */
type Injected = 'take-again' | 'no-order';

/** Every page of moves in one map, failing on a request read twice. */
async function allMoves(pages: StockMovePages): Promise<Map<string, RequestMoves>> {
  const all = new Map<string, RequestMoves>();
  for await (const page of pages) {
    for (const [requestId, moves] of page) {
      expect(all.has(requestId)).toBe(false);
      all.set(requestId, moves);
    }
  }
  return all;
}
let inject: Injected | null = null;
const injectedInto: Partial<Record<Injected, string>> = {};

const paused = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ faultHooks: [(...args) => injectFault(...args), paused.hook] });

const injectFault: FaultHook = async (point, settings, requestId) => {
  if (point !== 'stock-written' || !inject) return;
  const fault = inject;
  inject = null;
  injectedInto[fault] = requestId;
  if (fault === 'no-order') throw new Error('injected: the instance fails after taking the stock, before the order');
  // The section run again by the same request (a retry that should not have been): a second take under the same id.
  const keys = StockKeys.of(lab.keyPrefix, settings);
  const left = Number(await lab.app.redis.get(keys.stock)) - 1;
  await useScripts(lab.app.redis, [WRITE_STOCK]).writeStockV1(keys.stock, keys.moves, keys.orders, keys.orders, left, 1, requestId, '', '');
};

describe('stock moves by request id', () => {
  it('lists the request that took twice and the one that took with no order, and counts the lost updates, where the totals agree', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 10, strategy: 'no-lock', businessDelayMs: 0 });
    const place = () => lab.app.placement.place({ productId, quantity: 1, strategy: 'no-lock' });

    inject = 'take-again';
    expect((await place()).result.outcome).toBe('sold');
    inject = 'no-order';
    expect((await place()).result.outcome).toBe('error');
    // Twice: an order reads the stock and waits; another reads the same stock and sells; the first writes the same value.
    for (let i = 0; i < 2; i++) {
      const first = await paused.pause(place);
      expect((await place()).result.outcome).toBe('sold');
      expect((await first.resume()).result.outcome).toBe('sold');
    }

    const inventory = await lab.app.inventory.inventory(productId);
    // The totals alone: 10 − 5 left = 5 taken = 5 sold.
    expect({ initialStock: inventory.initialStock, remaining: inventory.remaining, sold: inventory.sold }).toEqual({ initialStock: 10, remaining: 5, sold: 5 });
    expect(inventory.moves).toEqual({
      requests: 6,
      unitsTaken: 7,
      unitsWithoutOrder: 2,
      takenTwice: { count: 1, units: 1, first: [injectedInto['take-again']] },
      takenWithoutOrder: { count: 1, units: 1, first: [injectedInto['no-order']] },
      orderedWithoutTake: { count: 0, units: 0, first: [] },
      // 10, a take and a take again (9, 8), one with no order (7), then the first pair that read the same stock.
      firstSameRead: { stockLeft: 6, requestIds: [expect.any(String), expect.any(String)] },
    });
    expect(inventory).toMatchObject({ lost: 2, lostUpdates: 2, storesAgree: false });
  });

  it('a clean run accounts for every request: nothing listed, nothing lost', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 3, strategy: 'uuid-lua' });
    for (let i = 0; i < 4; i++) await lab.app.placement.place({ productId, quantity: 1, strategy: 'uuid-lua' });
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({
      remaining: 0,
      sold: 3,
      lost: 0,
      lostUpdates: 0,
      storesAgree: true,
      moves: { requests: 3, unitsTaken: 3, takenTwice: { count: 0 }, takenWithoutOrder: { count: 0 }, orderedWithoutTake: { count: 0 } },
    });
  });

  it('a run bigger than a page: every request is read once, and an order whose request took nothing is found among the orders', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 10, strategy: 'lua-decrement' });
    for (let i = 0; i < 2; i++) expect((await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })).result.outcome).toBe('sold');
    const { runId } = await lab.app.inventory.inventory(productId);
    const keys = StockKeys.of(lab.keyPrefix, { productId, runId });
    const taken = await lab.app.redis.hkeys(keys.moves);
    expect(taken).toHaveLength(2);
    const forgotten = taken[0];
    // Noted takes with no order, far more than one HSCAN page, and one real take the store forgot.
    const stranded = Array.from({ length: 2500 }, (_, i) => `stranded-${String(i).padStart(4, '0')}`);
    await lab.app.redis.hset(keys.moves, Object.fromEntries(stranded.map((id) => [id, 't1:0'])));
    await lab.app.redis.hdel(keys.moves, forgotten);

    expect((await lab.app.inventory.inventory(productId)).moves).toEqual({
      requests: 2501,
      unitsTaken: 2501,
      unitsWithoutOrder: 2500,
      takenTwice: { count: 0, units: 0, first: [] },
      takenWithoutOrder: { count: 2500, units: 2500, first: stranded.slice(0, 5) },
      orderedWithoutTake: { count: 1, units: 1, first: [forgotten] },
      // The stranded takes all note 0 left: named as sold from one read, three of them, however many there are.
      firstSameRead: { stockLeft: 0, requestIds: [expect.any(String), expect.any(String), expect.any(String)] },
    });
  });

  it('moves noted in several hashes (segments on a cluster) come once per request, merged', async () => {
    const [one, other] = [`${lab.keyPrefix}:pages-test:{a}:moves`, `${lab.keyPrefix}:pages-test:{b}:moves`];
    await lab.app.redis.hset(one, { both: 't2:8', 'one-only': 't1:7' });
    await lab.app.redis.hset(other, { both: 't1:4 g1', 'other-only': 't3:1' });
    const pages = new StockMovePages([{ redis: lab.app.redis, key: one }, { redis: lab.app.redis, key: other }]);
    expect(await allMoves(pages)).toEqual(
      new Map([
        ['both', { takes: [2, 1], left: [8, 4], givenBack: 1 }],
        ['one-only', { takes: [1], left: [7], givenBack: 0 }],
        ['other-only', { takes: [3], left: [1], givenBack: 0 }],
      ]),
    );
    expect([...pages.seen].sort()).toEqual(['both', 'one-only', 'other-only']);
    await lab.app.redis.del(one, other);
  });

  it('a write or give-back sent again (ioredis re-sends after a lost reply) is noted once', async () => {
    const productId = freshProductId();
    const keys = StockKeys.of(lab.keyPrefix, { productId, runId: 'resent' });
    const redis = useScripts(lab.app.redis, [WRITE_STOCK, GIVE_BACK]);
    await redis.set(keys.stock, 10);
    for (let i = 0; i < 2; i++) await redis.writeStockV1(keys.stock, keys.moves, keys.orders, keys.orders, 9, 1, 'request-1', '', '');
    for (let i = 0; i < 2; i++) await redis.giveBackV1(keys.stock, keys.moves, 1, 'request-1');
    expect(await redis.get(keys.stock)).toBe('10');
    expect(await allMoves(new StockMovePages([{ redis, key: keys.moves }]))).toEqual(new Map([['request-1', { takes: [1], left: [9], givenBack: 1 }]]));
  });

  it('a MySQL row keeps no moves of its own: its orders are written in the stock\'s transaction', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 2, strategy: 'db-pessimistic' });
    await lab.app.placement.place({ productId, quantity: 1, strategy: 'db-pessimistic' });
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 1, sold: 1, moves: null, lost: 0, lostUpdates: 0, storesAgree: true });
  });
});
