import type { LockEvent } from '@oversell/contracts';
import { DataSource } from 'typeorm';
import { LockEvents } from '../../lock-events';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, PauseNextOrder, placeAtOnce, placeOrderAndDieAt, useStockTestApp } from '../../testing';

const STRATEGY = 'mysql-get-lock';
const STOCK = 5;

const inside = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ faultHooks: [inside.hook] });
const holdings: { runId: string; event: LockEvent }[] = [];

beforeAll(() => lab.app.app.get(LockEvents).subscribe((runId, _strategy, event) => holdings.push({ runId, event })));

async function reset(stock: number) {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock, strategy: STRATEGY, lockTtlMs: 50, businessDelayMs: 0 });
  return { productId, settings, lockName: StockKeys.of(lab.keyPrefix, settings).lock };
}

/** The connection id of the session holding the run's lock, as the server sees it; null when free. */
async function sessionHolding(lockName: string): Promise<number | null> {
  const [{ holder }]: { holder: number | null }[] = await lab.app.app.get(DataSource).query('SELECT IS_USED_LOCK(?) AS holder', [lockName]);
  return holder;
}

describe('mysql-get-lock when the lock holder\'s session ends', () => {
  it('a holder whose process is killed inside leaves no stale lock: the server frees it with the session, and the next orders sell', async () => {
    const { productId } = await reset(STOCK);
    await placeOrderAndDieAt({ keyPrefix: lab.keyPrefix, productId, strategy: STRATEGY, at: 'lock-acquired' });
    expect(await placeAtOnce(lab.app, { productId, strategy: STRATEGY, count: STOCK })).toEqual(Array(STOCK).fill('sold'));
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: STOCK, oversold: 0, storesAgree: true });
  });

  /** Two ways a working holder's session ends: a KILL from another connection (an operator, a watchdog script), and the lab's break-locks action, which does the same. */
  const endings: [string, (run: { productId: number; lockName: string }) => Promise<void>][] = [
    [
      'KILL from another connection',
      async ({ lockName }) => {
        const holder = await sessionHolding(lockName);
        expect(holder).not.toBeNull();
        await lab.app.app.get(DataSource).query('KILL CONNECTION ?', [holder]);
      },
    ],
    ['the lab\'s break-locks', async ({ productId }) => expect((await lab.app.lockBreaker.breakStaleLocks(productId)).broken).toBe(1)],
  ];

  it.each(endings)('pitfall: the holder\'s session ended (%s) while it works lets a second order in beside it: both sell the same unit', async (_how, endSession) => {
    const { productId, settings, lockName } = await reset(1);
    const first = await inside.pause(() => lab.app.placement.place({ productId, quantity: 1, strategy: STRATEGY }));
    // The first order has read the stock (1) and not written yet; its lock session ends under it.
    await endSession({ productId, lockName });
    const second = await lab.app.placement.place({ productId, quantity: 1, strategy: STRATEGY });
    expect([(await first.resume()).result.outcome, second.result.outcome]).toEqual(['sold', 'sold']);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 2, oversold: 1, remaining: 0, storesAgree: false });

    const [held, takenOver] = holdings.filter((h) => h.runId === settings.runId).sort((a, b) => a.event.acquiredAt - b.event.acquiredAt).map((h) => h.event);
    expect(takenOver.acquiredAt).toBeLessThan(held.releasedAt);
    // The first holder's release found its session gone: the lock event says it was lost.
    expect(held.expired).toBe(true);
    expect(takenOver.expired).toBe(false);
    expect(await sessionHolding(lockName)).toBeNull();
  });
});
