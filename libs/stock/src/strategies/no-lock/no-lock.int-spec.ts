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

it('no-lock loses an update whenever two orders overlap: both read 5, both write 4, two units sold', async () => {
  const productId = freshProductId();
  // The business delay keeps both orders between their GET and their SET at the same time.
  await stock.reset.reset(productId, { stock: 5, strategy: 'no-lock', businessDelayMs: 200 });
  const results = await Promise.all([0, 1].map(() => stock.placement.place({ productId, quantity: 1, strategy: 'no-lock' })));
  expect(results.map((r) => r.result.outcome)).toEqual(['sold', 'sold']);
  expect(await stock.inventory.inventory(productId)).toMatchObject({ remaining: 4, sold: 2, storesAgree: false });
});
