import { Gate } from '@oversell/locks/testing';
import { StockStoreLostError } from '../../errors';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, placeOrderAndDieAt, useStockTestApp } from '../../testing';

/** The run whose first overdraft is held at 'stock-overdrawn', between the DECRBY and the INCRBY back. */
let held: { runId: string; gate: Gate; first: boolean } | undefined;

const lab = useStockTestApp({
  faultHooks: [
    (point, settings) => {
      if (point !== 'stock-overdrawn' || settings.runId !== held?.runId || !held.first) return;
      held.first = false;
      return held.gate.pass();
    },
  ],
});

async function decrCheckProduct(stock: number) {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock, strategy: 'decr-check' });
  const order = async (quantity: number) => (await lab.app.placement.place({ productId, quantity, strategy: 'decr-check' })).result;
  return { productId, settings, stockKey: StockKeys.of(lab.keyPrefix, settings).stock, order };
}

describe('decr-check', () => {
  it('sells while the counter covers the order, and refuses without taking anything once it does not', async () => {
    const { productId, stockKey, order } = await decrCheckProduct(3);
    expect((await order(2)).outcome).toBe('sold');
    expect((await order(2)).outcome).toBe('sold_out');
    expect(await lab.app.redis.get(stockKey)).toBe('1');
    expect((await order(1)).outcome).toBe('sold');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: 3, oversold: 0, storesAgree: true });
  });

  it('while an overdraft is not yet put back, the counter reads below 0 and an order the stock covers is refused', async () => {
    const { productId, settings, stockKey, order } = await decrCheckProduct(1);
    held = { runId: settings.runId, gate: new Gate(), first: true };
    const tooLarge = order(2);
    await held.gate.arrived();

    expect(await lab.app.redis.get(stockKey)).toBe('-1');
    // One unit exists, yet the counter says -1 - 1 < 0: refused.
    expect((await order(1)).outcome).toBe('sold_out');
    expect(await lab.app.redis.get(stockKey)).toBe('-1');

    held.gate.release();
    expect((await tooLarge).outcome).toBe('sold_out');
    // Put back: the unit that was refused is there, and sells.
    expect((await order(1)).outcome).toBe('sold');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: 1, oversold: 0, storesAgree: true });
  });

  it('an instance that dies between the DECRBY and the INCRBY leaves the counter below 0 for good: the unit left is neither sold nor available', async () => {
    const { productId, settings, stockKey, order } = await decrCheckProduct(1);
    await placeOrderAndDieAt({ keyPrefix: lab.keyPrefix, productId, strategy: 'decr-check', at: 'stock-overdrawn', quantity: 2 });

    expect(await lab.app.redis.get(stockKey)).toBe('-1');
    expect(await lab.app.registry.get('decr-check').remaining(settings)).toBe(-1);
    expect((await order(1)).outcome).toBe('sold_out');
    const inventory = await lab.app.inventory.inventory(productId);
    console.log(`decr-check after a crash mid-overdraft: ${JSON.stringify(inventory)}`);
    expect(inventory).toMatchObject({ initialStock: 1, remaining: -1, sold: 0, orders: 0, oversold: 0, storesAgree: false });
  });

  it('answers store lost (the run was seeded), and leaves no key behind, when the stock key is missing', async () => {
    const { stockKey, order } = await decrCheckProduct(1);
    await lab.app.redis.del(stockKey);
    const result = await order(1);
    expect(result.outcome === 'error' && result.error).toBeInstanceOf(StockStoreLostError);
    expect(await lab.app.redis.exists(stockKey)).toBe(0);
  });

  it('the store lost while an overdraft waits for its give-back: the INCRBY creates no phantom stock, and the order answers store lost', async () => {
    // A Redis restart (no persistence) mid-sale, at the moment that conjured stock: between an order's
    // overdrawing DECRBY and its INCRBY back. Before, the INCRBY re-created the key with the units it
    // put back, and later orders sold them (434 of 400).
    const { settings, stockKey, order } = await decrCheckProduct(1);
    held = { runId: settings.runId, gate: new Gate(), first: true };
    const overdraft = order(2);
    await held.gate.arrived();
    const keys = StockKeys.of(lab.keyPrefix, settings);
    await lab.app.redis.del(keys.stock, keys.moves);

    held.gate.release();
    const result = await overdraft;
    expect(result.outcome === 'error' && result.error).toBeInstanceOf(StockStoreLostError);
    expect(await lab.app.redis.exists(stockKey)).toBe(0);
    const next = await order(1);
    expect(next.outcome === 'error' && next.error).toBeInstanceOf(StockStoreLostError);
    expect(await lab.app.redis.exists(stockKey)).toBe(0);
  });
});
