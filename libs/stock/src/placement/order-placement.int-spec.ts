import { freshProductId, useOtherStockInstance, useStockTestApp } from '../testing';

/** Two processes' worth of StockModule (each its own settings cache) over the same Redis and MySQL. */
const lab = useStockTestApp();
const other = useOtherStockInstance(lab);

describe('order placement', () => {
  it('never sells under remembered settings of an earlier run: a reset elsewhere is picked up on the next order', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement' });
    expect((await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })).result.outcome).toBe('sold');

    // Another instance starts a new run of the product; this one still remembers the first run.
    const second = await other.app.reset.reset(productId, { stock: 3, strategy: 'lua-decrement' });
    const { result, settings } = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' });
    expect(result.outcome).toBe('sold');
    expect(settings.runId).toBe(second.runId);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ runId: second.runId, initialStock: 3, remaining: 2, sold: 1, storesAgree: true });
  });

  it('follows a reset to another strategy made by another instance', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement' });
    await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' });
    await other.app.reset.reset(productId, { stock: 4, strategy: 'db-optimistic' });
    const { result } = await lab.app.placement.place({ productId, quantity: 2, strategy: 'db-optimistic' });
    expect(result.outcome).toBe('sold');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ strategy: 'db-optimistic', remaining: 2, sold: 2, storesAgree: true });
  });

  it('answers a replayed idempotency key with the first order, even once the stock is gone', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 1, strategy: 'lua-decrement' });
    const key = `replay-${productId}`;
    const first = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key });
    const again = await other.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key });
    expect(first.result.outcome).toBe('sold');
    expect(again.result).toMatchObject({ outcome: 'sold', order: { id: (first.result as { order: { id: number } }).order.id, replayed: true } });
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: 1, orders: 1 });
  });

  it('answers a replay while stock remains with the first order and takes no second unit', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 5, strategy: 'uuid-lua' });
    const key = `replay-${productId}`;
    await lab.app.placement.place({ productId, quantity: 2, strategy: 'uuid-lua', idempotencyKey: key });
    const again = await lab.app.placement.place({ productId, quantity: 2, strategy: 'uuid-lua', idempotencyKey: key });
    expect(again.result).toMatchObject({ outcome: 'sold', order: { replayed: true } });
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 3, sold: 2, orders: 1, storesAgree: true });
  });
});
