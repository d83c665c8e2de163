import { setTimeout as sleep } from 'node:timers/promises';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, useStockTestApp } from '../../testing';

const lab = useStockTestApp();

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
    // Wide windows on both sides: the lock is seen before it expires, and the second holder comes before the first is done.
    const settings = await lab.app.reset.reset(productId, { stock: 5, strategy, lockTtlMs: 150, businessDelayMs: 1000 });
    const lock = StockKeys.of(lab.keyPrefix, settings).lock;
    const first = lab.app.placement.place({ productId, quantity: 1, strategy });
    while ((await lab.app.redis.exists(lock)) === 0) await sleep(1);
    await untilGone(lock);
    // A second order takes the expired lock while the first is still inside its business time.
    expect(await lab.app.redis.set(lock, 'second-holder', 'PX', 10_000, 'NX')).toBe('OK');
    await first;
    expect(await lab.app.redis.exists(lock)).toBe(lockLeftAfter);
  });
});
