import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, placeAtOnce, placeOrderAndDieAt, useStockTestApp } from '../../testing';

const STRATEGY = 'setnx-no-ttl';
const STOCK = 5;
/** The TTL the product is reset with: this lock ignores it. */
const TTL_MS = 50;
/** How long an order waits for the lock: six TTLs, so any lease would have run out meanwhile. */
const WAIT_MS = 300;

const lab = useStockTestApp({ lockWaitTimeoutMs: WAIT_MS });

describe('setnx-no-ttl when the lock holder\'s process is killed inside', () => {
  it('leaves the lock forever: every later order times out and no stock moves, until the lab breaks the lock', async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: STOCK, strategy: STRATEGY, lockTtlMs: TTL_MS, businessDelayMs: 0 });
    const lock = StockKeys.of(lab.keyPrefix, settings).lock;
    await placeOrderAndDieAt({ keyPrefix: lab.keyPrefix, productId, strategy: STRATEGY, at: 'lock-acquired' });
    expect(await lab.app.redis.pttl(lock)).toBe(-1);

    const started = Date.now();
    expect(await placeAtOnce(lab.app, { productId, strategy: STRATEGY, count: STOCK })).toEqual(Array(STOCK).fill('lock_timeout'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS);
    // Deadlock: still held with no expiry, long past the TTL, and nothing sold.
    expect(await lab.app.redis.pttl(lock)).toBe(-1);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: STOCK, sold: 0, orders: 0, storesAgree: true });

    expect(await lab.app.lockBreaker.breakStaleLocks(productId)).toEqual({ productId, runId: settings.runId, strategy: STRATEGY, broken: 1 });
    expect(await lab.app.redis.exists(lock)).toBe(0);
    expect(await placeAtOnce(lab.app, { productId, strategy: STRATEGY, count: STOCK })).toEqual(Array(STOCK).fill('sold'));
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: STOCK, oversold: 0, storesAgree: true });
  });
});
