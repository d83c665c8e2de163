import type { LockEvent } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import { LockEvents } from '../../lock-events';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, PauseNextOrder, placeAtOnce, placeOrderAndDieAt, useStockTestApp } from '../../testing';

const STRATEGY = 'db-lock-table';
const STOCK = 5;
/** The TTL the product is reset with: this lock ignores it. */
const TTL_MS = 50;
/** How long an order waits for the lock: six TTLs, so any lease would have run out meanwhile. */
const WAIT_MS = 300;

const inside = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ lockWaitTimeoutMs: WAIT_MS, faultHooks: [inside.hook] });
const holdings: { runId: string; event: LockEvent }[] = [];

beforeAll(() => lab.app.app.get(LockEvents).subscribe((runId, _strategy, event) => holdings.push({ runId, event })));

async function reset(stock: number) {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock, strategy: STRATEGY, lockTtlMs: TTL_MS, businessDelayMs: 0 });
  const lockName = StockKeys.of(lab.keyPrefix, settings).lock;
  const ownerOfLock = async () => {
    const rows: { owner: Buffer | null }[] = await lab.app.app.get(DataSource).query('SELECT owner FROM locks WHERE name = ?', [lockName]);
    return rows.length ? (rows[0].owner?.toString() ?? null) : undefined;
  };
  return { productId, settings, ownerOfLock };
}

describe('db-lock-table when the lock holder\'s process is killed inside', () => {
  it('leaves its row owned for ever: every later order times out and no stock moves, until the lab breaks the lock', async () => {
    const { productId, settings, ownerOfLock } = await reset(STOCK);
    await placeOrderAndDieAt({ keyPrefix: lab.keyPrefix, productId, strategy: STRATEGY, at: 'lock-acquired' });
    const deadOwner = await ownerOfLock();
    expect(deadOwner).toMatch(/^worker-0:/);

    const started = Date.now();
    expect(await placeAtOnce(lab.app, { productId, strategy: STRATEGY, count: STOCK })).toEqual(Array(STOCK).fill('lock_timeout'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS);
    // Deadlock: the dead order still owns the row, long past the TTL, and nothing sold.
    expect(await ownerOfLock()).toBe(deadOwner);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: STOCK, sold: 0, orders: 0, storesAgree: true });

    expect(await lab.app.lockBreaker.breakStaleLocks(productId)).toEqual({ productId, runId: settings.runId, strategy: STRATEGY, broken: 1 });
    expect(await ownerOfLock()).toBeNull();
    expect(await placeAtOnce(lab.app, { productId, strategy: STRATEGY, count: STOCK })).toEqual(Array(STOCK).fill('sold'));
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: STOCK, oversold: 0, storesAgree: true });
  });

  it('breaking the lock of a holder that is only slow lets a second order in beside it: both sell the same unit', async () => {
    const { productId, settings } = await reset(1);
    const first = await inside.pause(() => lab.app.placement.place({ productId, quantity: 1, strategy: STRATEGY }));
    expect((await lab.app.lockBreaker.breakStaleLocks(productId)).broken).toBe(1);
    const second = await lab.app.placement.place({ productId, quantity: 1, strategy: STRATEGY });
    expect([(await first.resume()).result.outcome, second.result.outcome]).toEqual(['sold', 'sold']);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 2, oversold: 1, remaining: 0, storesAgree: false });

    const [held, takenOver] = holdings.filter((h) => h.runId === settings.runId).sort((a, b) => a.event.acquiredAt - b.event.acquiredAt).map((h) => h.event);
    expect(takenOver.acquiredAt).toBeLessThan(held.releasedAt);
    // The first holder's release found its row gone.
    expect(held.expired).toBe(true);
  });
});
