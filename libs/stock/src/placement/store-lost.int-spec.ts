import type { StrategyName } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import { StockNotSeededError, StockStoreLostError, StoreUnavailableError } from '../errors';
import { StockKeys } from '../redis/stock-keys';
import { freshProductId, useOtherStockInstance, useStockTestApp } from '../testing';

/**
 * A Redis that restarts without persistence comes back with none of the product's keys: settings,
 * stock, segments, moves. Deleting every key of the product is exactly what that leaves.
 */
const lab = useStockTestApp();
const other = useOtherStockInstance(lab);

async function loseRedisKeys(productId: number): Promise<void> {
  const keys = await lab.app.redis.keys(new StockKeys(lab.keyPrefix, productId).pattern());
  expect(keys.length).toBeGreaterThan(0);
  await lab.app.redis.del(...keys);
}

async function ordersInMysql(productId: number): Promise<number> {
  const [{ n }] = await lab.app.app.get(DataSource).query('SELECT COUNT(*) AS n FROM orders WHERE product_id = ?', [productId]);
  return Number(n);
}

describe('a stock store that lost its keys', () => {
  it.each<StrategyName>(['lua-decrement', 'uuid-lua', 'segmented', 'decr-check'])('%s: inventory says store lost and an order is refused as such, nothing written', async (strategy) => {
    const productId = freshProductId();
    const { runId } = await lab.app.reset.reset(productId, { stock: 5, strategy });
    expect((await lab.app.placement.place({ productId, quantity: 1, strategy })).result.outcome).toBe('sold');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 4, sold: 1, storesAgree: true, storeLost: false });

    await loseRedisKeys(productId);

    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ runId, remaining: 0, sold: 1, storesAgree: false, storeLost: true });
    // This process remembers the run's settings; the other reads them from MySQL: both are told the same.
    for (const app of [lab.app, other.app]) {
      const { result, settings } = await app.placement.place({ productId, quantity: 1, strategy });
      expect(settings.runId).toBe(runId);
      expect(result.outcome === 'error' && result.error).toBeInstanceOf(StockStoreLostError);
    }
    expect(await ordersInMysql(productId)).toBe(1);
    expect(await lab.app.redis.exists(StockKeys.of(lab.keyPrefix, { productId, runId }).stock)).toBe(0);
  });

  it('a reset after the loss seeds the store again', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 2, strategy: 'lua-decrement' });
    await loseRedisKeys(productId);
    await lab.app.reset.reset(productId, { stock: 2, strategy: 'lua-decrement' });
    expect((await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })).result.outcome).toBe('sold');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 1, sold: 1, storesAgree: true, storeLost: false });
  });

  it('a run whose reset never seeded its store stays "not seeded", not "lost"', async () => {
    const productId = freshProductId();
    // The reset writes the MySQL row, then fails while seeding Redis (as when Redis drops mid-reset).
    const seeding = jest.spyOn(lab.app.registry.get('lua-decrement'), 'prepare').mockRejectedValueOnce(new Error('connection lost while seeding'));
    try {
      await expect(lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement' })).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      seeding.mockRestore();
    }

    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, storesAgree: false, storeLost: false });
    const { result } = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' });
    expect(result.outcome === 'error' && result.error).toBeInstanceOf(StockNotSeededError);
    expect(await ordersInMysql(productId)).toBe(0);
  });
});
