import { DataSource } from 'typeorm';
import { createStockTestApp, freshKeyPrefix, freshProductId, type StockTestApp } from '../../testing';

let stock: StockTestApp;

beforeAll(async () => {
  stock = await createStockTestApp({ keyPrefix: freshKeyPrefix(), optimisticMaxAttempts: 1 });
});

afterAll(async () => {
  await stock.close();
});

describe('db-optimistic', () => {
  it('counts a conflict when the version moved between read and update, and takes nothing for the loser', async () => {
    const productId = freshProductId();
    // The business delay holds both orders between their read and their conditional UPDATE.
    await stock.reset.reset(productId, { stock: 10, strategy: 'db-optimistic', businessDelayMs: 200 });
    const [a, b] = await Promise.all([0, 1].map(() => stock.placement.place({ productId, quantity: 1, strategy: 'db-optimistic' })));
    const outcomes = [a.result, b.result].map((r) => r.outcome).sort();
    expect(outcomes).toEqual(['conflict', 'sold']);
    expect([a.result, b.result].find((r) => r.outcome === 'conflict')!.conflicts).toBe(1);
    expect(await stock.inventory.inventory(productId)).toMatchObject({ remaining: 9, sold: 1, orders: 1, storesAgree: true });
  });

  it('bumps the version with every sale, in the same transaction as the order', async () => {
    const productId = freshProductId();
    await stock.reset.reset(productId, { stock: 3, strategy: 'db-optimistic' });
    for (let i = 0; i < 3; i++) await stock.placement.place({ productId, quantity: 1, strategy: 'db-optimistic' });
    const [row] = await stock.app.get(DataSource).query('SELECT stock, version FROM products WHERE id = ?', [productId]);
    expect(row).toEqual({ stock: 0, version: 3 });
  });
});
