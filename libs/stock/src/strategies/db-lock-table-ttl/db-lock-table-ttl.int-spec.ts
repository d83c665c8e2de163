import type { LockEvent } from '@oversell/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { LockEvents } from '../../lock-events';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, PauseNextOrder, useStockTestApp } from '../../testing';

const STRATEGY = 'db-lock-table-ttl';
/** How long the second order waits for the lock. */
const WAIT_MS = 300;

const inside = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ lockWaitTimeoutMs: WAIT_MS, faultHooks: [inside.hook] });
const holdings: { runId: string; event: LockEvent }[] = [];

beforeAll(() => lab.app.app.get(LockEvents).subscribe((runId, _strategy, event) => holdings.push({ runId, event })));

/** Polls the lock row until its expires_at has passed by the database's clock: the state the pitfall needs, observed. */
async function untilLeasePassed(lockName: string): Promise<void> {
  const query = 'SELECT expires_at <= UTC_TIMESTAMP(3) AS passed FROM locks WHERE name = ?';
  while (Number((await lab.app.app.get(DataSource).query(query, [lockName]))[0].passed) !== 1) await sleep(5);
}

/** The first order stays inside (after reading the stock) while a second order asks for the same last unit. */
async function secondOrderWhileFirstInside(lockTtlMs: number, meanwhile: (lockName: string) => Promise<void>) {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock: 1, strategy: STRATEGY, lockTtlMs, businessDelayMs: 0 });
  const first = await inside.pause(() => lab.app.placement.place({ productId, quantity: 1, strategy: STRATEGY }));
  await meanwhile(StockKeys.of(lab.keyPrefix, settings).lock);
  const second = await lab.app.placement.place({ productId, quantity: 1, strategy: STRATEGY });
  const outcomes = [(await first.resume()).result.outcome, second.result.outcome];
  const inventory = await lab.app.inventory.inventory(productId);
  const events = holdings.filter((h) => h.runId === settings.runId).sort((a, b) => a.event.acquiredAt - b.event.acquiredAt).map((h) => h.event);
  return { outcomes, inventory, events };
}

describe('db-lock-table-ttl when a holder stays inside', () => {
  it('pitfall: longer than its TTL (100 ms), its row expires under it; the next order takes it over and sells the same unit', async () => {
    const { outcomes, inventory, events } = await secondOrderWhileFirstInside(100, untilLeasePassed);
    expect(outcomes).toEqual(['sold', 'sold']);
    expect(inventory).toMatchObject({ sold: 2, oversold: 1, remaining: 0, storesAgree: false });
    // Two holders at once: the second was granted the row before the first let go.
    const [first, second] = events;
    expect(second.acquiredAt).toBeLessThan(first.releasedAt);
    // The first holder's release found the row owned by the second.
    expect([first.expired, second.expired]).toEqual([true, false]);
  });

  it('within its TTL (10 s), the next order waits, times out, and exactly the stock is sold', async () => {
    const { outcomes, inventory, events } = await secondOrderWhileFirstInside(10_000, async () => undefined);
    expect(outcomes).toEqual(['sold', 'lock_timeout']);
    expect(inventory).toMatchObject({ sold: 1, oversold: 0, remaining: 0, storesAgree: true });
    expect(events.map((event) => event.expired)).toEqual([false]);
  });
});
