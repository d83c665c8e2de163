import { DataSource } from 'typeorm';
import { freshProductId, useStockTestApp } from '../../testing';

const lab = useStockTestApp({ optimisticMaxAttempts: 1 });

describe('db-optimistic', () => {
  it('counts a conflict when the version moved between read and update, and takes nothing for the loser', async () => {
    const productId = freshProductId();
    // The business delay holds both orders between their read and their conditional UPDATE.
    await lab.app.reset.reset(productId, { stock: 10, strategy: 'db-optimistic', businessDelayMs: 200 });
    const [a, b] = await Promise.all([0, 1].map(() => lab.app.placement.place({ productId, quantity: 1, strategy: 'db-optimistic' })));
    const outcomes = [a.result, b.result].map((r) => r.outcome).sort();
    expect(outcomes).toEqual(['conflict', 'sold']);
    expect([a.result, b.result].find((r) => r.outcome === 'conflict')!.conflicts).toBe(1);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 9, sold: 1, orders: 1, storesAgree: true });
  });

  it('bumps the version with every sale, in the same transaction as the order', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 3, strategy: 'db-optimistic' });
    for (let i = 0; i < 3; i++) await lab.app.placement.place({ productId, quantity: 1, strategy: 'db-optimistic' });
    const [row] = await lab.app.app.get(DataSource).query('SELECT stock, version FROM products WHERE id = ?', [productId]);
    expect(row).toEqual({ stock: 0, version: 3 });
  });
});
