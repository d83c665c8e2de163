import { StoreUnavailableError } from '../errors';
import { freshProductId, useOtherStockInstance, useStockInstanceBehindMysqlProxy, useStockTestApp } from '../testing';

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

  it('takes two keys that differ only in case for two orders, as their Redis claims do', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement' });
    const key = `case-${productId}`;
    const upper = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key.toUpperCase() });
    const lower = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key });
    expect(upper.result).toMatchObject({ outcome: 'sold', order: { replayed: false, idempotencyKey: key.toUpperCase() } });
    expect(lower.result).toMatchObject({ outcome: 'sold', order: { replayed: false, idempotencyKey: key } });
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 3, sold: 2, orders: 2, storesAgree: true });
  });

  describe('with MySQL unreachable', () => {
    const cutOff = useStockInstanceBehindMysqlProxy(lab, 'mysql-behind-proxy');
    const { proxy } = cutOff;

    it("answers a replay whose first order cannot be read as the store's failure, an outcome the run counts", async () => {
      const productId = freshProductId();
      await lab.app.reset.reset(productId, { stock: 1, strategy: 'lua-decrement' });
      const key = `replay-cut-${productId}`;
      expect((await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key })).result.outcome).toBe('sold');
      // The instance behind the proxy knows the run before MySQL goes.
      await cutOff.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' });
      await proxy.cut();
      try {
        // Sold out, key seen: the replay looks the first order up in MySQL, which does not answer.
        const { result } = await cutOff.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key });
        expect(result).toMatchObject({ outcome: 'error', error: expect.any(StoreUnavailableError) });
      } finally {
        await proxy.restore();
      }
      expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: 1, orders: 1, storesAgree: true });
    });
  });
});
