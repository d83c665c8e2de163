import { useTestRedis } from '@oversell/locks/testing';
import { FENCED, fencedAccess, fenceOf } from './fenced-stock';
import type { StockCell } from './redis-stock';

/** The fenced stock scripts on the real Redis: which tokens they refuse, and that a refusal changes nothing. */
const store = useTestRedis();
const freshStockKey = () => {
  const key = store.freshKey();
  return { stock: `${key}:stock`, moves: `${key}:moves`, orders: `${key}:orders` };
};
const take = { requestId: 'request-1', quantity: 1 };

/** A stock key holding 10, whose highest token seen is `highest` (none when undefined). */
async function stockSeenBy(highest?: number): Promise<StockCell> {
  const cell = freshStockKey();
  await store.redis.set(cell.stock, 10);
  if (highest !== undefined) await store.redis.set(fenceOf(cell.stock), highest);
  return cell;
}

const stored = async (cell: { stock: string }) => ({ stock: await store.redis.get(cell.stock), highest: await store.redis.get(fenceOf(cell.stock)) });

describe('fenced stock write', () => {
  it('refuses a token lower than the highest seen and changes nothing', async () => {
    const cell = await stockSeenBy(7);
    expect(await fencedAccess(store.redis, cell, 6).write(9, take)).toBe('fenced');
    expect(await stored(cell)).toEqual({ stock: '10', highest: '7' });
  });

  it.each([
    ['an equal', 7],
    ['a higher', 8],
  ])('accepts %s token: writes the stock and keeps the token as the highest', async (_, token) => {
    const cell = await stockSeenBy(7);
    expect(await fencedAccess(store.redis, cell, token).write(9, take)).toBe('written');
    expect(await stored(cell)).toEqual({ stock: '9', highest: String(token) });
  });

  it('accepts the first token a stock sees', async () => {
    const cell = await stockSeenBy();
    expect(await fencedAccess(store.redis, cell, 1).write(9, take)).toBe('written');
    expect(await stored(cell)).toEqual({ stock: '9', highest: '1' });
  });
});

describe('fenced stock read', () => {
  it('refuses a token lower than the highest seen, and leaves the highest as it was', async () => {
    const cell = await stockSeenBy(7);
    expect(await fencedAccess(store.redis, cell, 6).read()).toBe(FENCED);
    expect(await stored(cell)).toEqual({ stock: '10', highest: '7' });
  });

  it('registers an equal or higher token: from then on a lower token cannot write', async () => {
    const cell = await stockSeenBy(7);
    expect(await fencedAccess(store.redis, cell, 9).read()).toBe('10');
    expect(await stored(cell)).toEqual({ stock: '10', highest: '9' });
    // The stale holder read before the newer one did; its write now comes after, and is refused.
    expect(await fencedAccess(store.redis, cell, 8).write(9, take)).toBe('fenced');
    expect(await fencedAccess(store.redis, cell, 9).write(9, take)).toBe('written');
    expect(await stored(cell)).toEqual({ stock: '9', highest: '9' });
  });

  it('answers null for a stock that is not seeded', async () => {
    const cell = freshStockKey();
    expect(await fencedAccess(store.redis, cell, 1).read()).toBeNull();
  });
});
