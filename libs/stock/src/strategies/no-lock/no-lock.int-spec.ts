import { freshProductId, useStockTestApp } from '../../testing';

const lab = useStockTestApp();

it('no-lock loses an update whenever two orders overlap: both read 5, both write 4, two units sold', async () => {
  const productId = freshProductId();
  // The business delay keeps both orders between their GET and their SET at the same time.
  await lab.app.reset.reset(productId, { stock: 5, strategy: 'no-lock', businessDelayMs: 200 });
  const results = await Promise.all([0, 1].map(() => lab.app.placement.place({ productId, quantity: 1, strategy: 'no-lock' })));
  expect(results.map((r) => r.result.outcome)).toEqual(['sold', 'sold']);
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 4, sold: 2, storesAgree: false });
});
