import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, useStockTestApp } from '../../testing';

const lab = useStockTestApp();

describe('segmented', () => {
  it('splits the stock over the segments, the remainder to the first ones', async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: 12, strategy: 'segmented', segments: 5 });
    const keys = StockKeys.of(lab.keyPrefix, settings);
    expect(await lab.app.redis.mget([0, 1, 2, 3, 4].map((i) => keys.segment(i)))).toEqual(['3', '3', '2', '2', '2']);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 12, storesAgree: true });
  });

  it('refuses an order larger than any one segment although the total would cover it (fragmentation)', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 10, strategy: 'segmented', segments: 5 });
    const { result } = await lab.app.placement.place({ productId, quantity: 3, strategy: 'segmented' });
    expect(result.outcome).toBe('sold_out');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 10, sold: 0 });
  });

  it('moves on to the segments that still have stock, and sells out only when all are empty', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 5, strategy: 'segmented', segments: 5 });
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push((await lab.app.placement.place({ productId, quantity: 1, strategy: 'segmented' })).result.outcome);
    expect(outcomes).toEqual(['sold', 'sold', 'sold', 'sold', 'sold', 'sold_out']);
  });

  it('break-locks deletes the held segment locks of the current run, and only those', async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: 10, strategy: 'segmented', segments: 5 });
    const keys = StockKeys.of(lab.keyPrefix, settings);
    await lab.app.redis.set(keys.segmentLock(1), 'dead-holder');
    await lab.app.redis.set(keys.segmentLock(3), 'dead-holder');
    expect(await lab.app.lockBreaker.breakStaleLocks(productId)).toEqual({ productId, runId: settings.runId, strategy: 'segmented', broken: 2 });
    expect(await lab.app.redis.exists(keys.segmentLock(1), keys.segmentLock(3))).toBe(0);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 10, storesAgree: true });
  });
});
