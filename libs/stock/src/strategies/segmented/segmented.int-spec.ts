import { StockKeys } from '../../redis/stock-keys';
import { createStockTestApp, freshKeyPrefix, freshProductId, type StockTestApp } from '../../testing';

let stock: StockTestApp;
const keyPrefix = freshKeyPrefix();

beforeAll(async () => {
  stock = await createStockTestApp({ keyPrefix });
});

afterAll(async () => {
  const keys = await stock.redis.keys(`${keyPrefix}:*`);
  if (keys.length) await stock.redis.del(...keys);
  await stock.close();
});

describe('segmented', () => {
  it('splits the stock over the segments, the remainder to the first ones', async () => {
    const productId = freshProductId();
    await stock.reset.reset(productId, { stock: 12, strategy: 'segmented', segments: 5 });
    const keys = new StockKeys(keyPrefix, productId);
    expect(await stock.redis.mget([0, 1, 2, 3, 4].map((i) => keys.segment(i)))).toEqual(['3', '3', '2', '2', '2']);
    expect(await stock.inventory.inventory(productId)).toMatchObject({ remaining: 12, storesAgree: true });
  });

  it('refuses an order larger than any one segment although the total would cover it (fragmentation)', async () => {
    const productId = freshProductId();
    await stock.reset.reset(productId, { stock: 10, strategy: 'segmented', segments: 5 });
    const { result } = await stock.placement.place({ productId, quantity: 3, strategy: 'segmented' });
    expect(result.outcome).toBe('sold_out');
    expect(await stock.inventory.inventory(productId)).toMatchObject({ remaining: 10, sold: 0 });
  });

  it('moves on to the segments that still have stock, and sells out only when all are empty', async () => {
    const productId = freshProductId();
    await stock.reset.reset(productId, { stock: 5, strategy: 'segmented', segments: 5 });
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push((await stock.placement.place({ productId, quantity: 1, strategy: 'segmented' })).result.outcome);
    expect(outcomes).toEqual(['sold', 'sold', 'sold', 'sold', 'sold', 'sold_out']);
  });
});
