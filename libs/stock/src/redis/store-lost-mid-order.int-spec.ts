import type { StrategyName } from '@oversell/contracts';
import { StockStoreLostError } from '../errors';
import { StockKeys } from './stock-keys';
import { freshProductId, PauseNextOrder, useStockTestApp } from '../testing';

/**
 * Redis restarted without persistence in the middle of an order, at the moment that can conjure stock:
 * the holder has read the stock (the keys then vanish) and is about to write the value it read. No
 * script may create a stock key it did not find: the write leaves the key missing, the order answers
 * store lost, and so does every order after it.
 */
const reader = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ faultHooks: [reader.hook] });

/** Every key of the product, as a restart of a Redis that keeps nothing on disk leaves it. */
async function loseTheStore(productId: number): Promise<void> {
  const keys = await lab.app.redis.keys(new StockKeys(lab.keyPrefix, productId).pattern());
  if (keys.length) await lab.app.redis.del(...keys);
}

async function productKeys(productId: number): Promise<string[]> {
  return lab.app.redis.keys(new StockKeys(lab.keyPrefix, productId).pattern());
}

// The Redis strategies that read the stock, then write it, with no lock service of their own.
const READ_THEN_WRITE: StrategyName[] = ['no-lock', 'setnx-no-ttl', 'setnx-expire', 'naive-setnx', 'setnx-getset', 'uuid-check-del', 'uuid-lua', 'watchdog', 'watchdog-fenced', 'segmented'];

describe.each(READ_THEN_WRITE)('%s, its store lost between the stock read and the write', (strategy) => {
  it('writes no stock back: the key stays missing and the order, and the next, answer store lost', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 10, strategy, lockTtlMs: 5000, businessDelayMs: 0 });
    const order = async () => (await lab.app.placement.place({ productId, quantity: 1, strategy })).result;
    expect((await order()).outcome).toBe('sold');

    const paused = await reader.pause(order);
    await loseTheStore(productId);
    const result = await paused.resume();
    expect(result.outcome === 'error' && result.error).toBeInstanceOf(StockStoreLostError);
    // Lock keys may remain (a holder's lock outlives nothing but its lease); no stock key does.
    expect((await productKeys(productId)).filter((key) => /:(stock|segment:\d+)$/.test(key))).toEqual([]);

    const next = await order();
    expect(next.outcome === 'error' && next.error).toBeInstanceOf(StockStoreLostError);
    expect((await productKeys(productId)).filter((key) => /:(stock|segment:\d+)$/.test(key))).toEqual([]);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ storeLost: true, sold: 1, oversold: 0, soldTwice: 0 });
  });
});
