import type { StrategyName } from '@oversell/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultPoint } from '../../fault-points';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, placeAtOnce, placeOrderAndDieAt, useStockTestApp } from '../../testing';

const STOCK = 5;
const TTL_MS = 500;
/** How long an order waits for the lock: longer than the TTL, so a lock with one would have expired meanwhile. */
const WAIT_MS = 700;

const lab = useStockTestApp({ lockWaitTimeoutMs: WAIT_MS });

/** A fresh product for `strategy` whose lock holder's process was killed at `at`; the run's lock key. */
async function holderKilledAt(strategy: StrategyName, at: FaultPoint) {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock: STOCK, strategy, lockTtlMs: TTL_MS, businessDelayMs: 0 });
  await placeOrderAndDieAt({ keyPrefix: lab.keyPrefix, productId, strategy, at });
  return { productId, lock: StockKeys.of(lab.keyPrefix, settings).lock };
}

describe('setnx-expire when the holder is killed between its SETNX and its PEXPIRE', () => {
  it('leaves a lock with no TTL: every later order times out, long past the TTL, and no stock moves', async () => {
    const { productId, lock } = await holderKilledAt('setnx-expire', 'lock-set-before-expire');
    expect(await lab.app.redis.pttl(lock)).toBe(-1);
    expect(await placeAtOnce(lab.app, { productId, strategy: 'setnx-expire', count: STOCK })).toEqual(Array(STOCK).fill('lock_timeout'));
    expect(await lab.app.redis.pttl(lock)).toBe(-1);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: STOCK, sold: 0, orders: 0, storesAgree: true });
  });
});

describe.each([
  ['naive-setnx', 'the fix: SET NX PX sets the lock and its TTL in one command'],
  ['setnx-expire', 'killed after its PEXPIRE: only the gap between the two commands is at fault'],
] as const)('%s when the holder is killed once it holds the lock (%s)', (strategy, _why) => {
  it(`frees the lock within one TTL (${TTL_MS} ms) and the next order sells`, async () => {
    const { productId, lock } = await holderKilledAt(strategy, 'lock-acquired');
    const died = Date.now();
    const leaseLeft = await lab.app.redis.pttl(lock);
    expect(leaseLeft).toBeGreaterThan(0);
    expect(leaseLeft).toBeLessThanOrEqual(TTL_MS);
    while ((await lab.app.redis.exists(lock)) === 1) await sleep(5);
    const goneAfter = Date.now() - died;
    console.log(`${strategy}: lock key gone ${goneAfter} ms after the holder died (PTTL then ${leaseLeft} ms, TTL ${TTL_MS} ms)`);
    // Polled every 5 ms: Redis expires the key on the access that finds it past its time.
    expect(goneAfter).toBeLessThanOrEqual(TTL_MS + 20);
    expect(await placeAtOnce(lab.app, { productId, strategy, count: 1 })).toEqual(['sold']);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: STOCK - 1, sold: 1, oversold: 0, storesAgree: true });
  });
});
