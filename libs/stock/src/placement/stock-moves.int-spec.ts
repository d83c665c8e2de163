import { useScripts } from '@oversell/locks';
import type { FaultHook } from '../fault-points';
import { WRITE_STOCK } from '../redis/fenced-stock';
import { GIVE_BACK } from '../redis/redis-stock';
import { StockKeys } from '../redis/stock-keys';
import { readStockMoves } from '../redis/stock-moves';
import { freshProductId, PauseNextOrder, useStockTestApp } from '../testing';

/**
 * The stock's moves by request id against the orders, on the real Redis and MariaDB: the faults below
 * are chosen so the totals agree (5 units gone from the store, 5 units in orders) while one request
 * took twice, one took with no order, and two pairs of orders sold the same unit.
 */
type Injected = 'take-again' | 'no-order';
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
  await useScripts(lab.app.redis, [WRITE_STOCK]).writeStockV1(keys.stock, keys.moves, left, 1, requestId);
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

  it('a write or give-back sent again (ioredis re-sends after a lost reply) is noted once', async () => {
    const productId = freshProductId();
    const keys = StockKeys.of(lab.keyPrefix, { productId, runId: 'resent' });
    const redis = useScripts(lab.app.redis, [WRITE_STOCK, GIVE_BACK]);
    await redis.set(keys.stock, 10);
    for (let i = 0; i < 2; i++) await redis.writeStockV1(keys.stock, keys.moves, 9, 1, 'request-1');
    for (let i = 0; i < 2; i++) await redis.giveBackV1(keys.stock, keys.moves, 1, 'request-1');
    expect(await redis.get(keys.stock)).toBe('10');
    expect(await readStockMoves(redis, keys.moves)).toEqual(new Map([['request-1', { takes: [1], givenBack: 1 }]]));
  });

  it('a MySQL row keeps no moves of its own: its orders are written in the stock\'s transaction', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 2, strategy: 'db-pessimistic' });
    await lab.app.placement.place({ productId, quantity: 1, strategy: 'db-pessimistic' });
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 1, sold: 1, moves: null, lost: 0, lostUpdates: 0, storesAgree: true });
  });
});
