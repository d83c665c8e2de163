import { setTimeout as sleep } from 'node:timers/promises';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, PauseNextOrder, useStockTestApp } from '../../testing';

/** Holds the first order inside its section, past its lease: the business time that outlives the lock, made exact. */
const holder = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ faultHooks: [holder.hook] });

/** Waits until Redis has expired the key: the state the pitfall needs, observed rather than slept for. */
async function untilGone(key: string): Promise<void> {
  while ((await lab.app.redis.exists(key)) === 1) await sleep(5);
}

describe.each([
  ['naive-setnx', 'deletes the lock of the order that took it after the lease ran out', 0],
  ['uuid-lua', 'leaves the next holder\'s lock alone (compare-and-delete refuses)', 1],
] as const)('%s when the business time outlives the lease', (strategy, behaviour, lockLeftAfter) => {
  it(behaviour, async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: 5, strategy, lockTtlMs: 150, businessDelayMs: 0 });
    const lock = StockKeys.of(lab.keyPrefix, settings).lock;
    const first = await holder.pause(() => lab.app.placement.place({ productId, quantity: 1, strategy }));
    await untilGone(lock);
    // A second order takes the expired lock while the first is still inside its section.
    expect(await lab.app.redis.set(lock, 'second-holder', 'PX', 10_000, 'NX')).toBe('OK');
    expect((await first.resume()).result.outcome).toBe('sold');
    expect(await lab.app.redis.exists(lock)).toBe(lockLeftAfter);
  });
});
