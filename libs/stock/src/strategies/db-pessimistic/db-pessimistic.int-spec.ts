import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { freshProductId, PauseNextOrder, useStockTestApp, type StockTestApp } from '../../testing';

/** Keeps one order inside its section, holding the row lock, at its business time. */
const holder = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ faultHooks: [holder.hook] });
/** The same module with a lock wait InnoDB can express (whole seconds): 1 s. */
const impatient = useStockTestApp({ faultHooks: [holder.hook], lockWaitTimeoutMs: 1000 });

/**
 * InnoDB refreshes its information_schema lock tables only when they have not been read for 100 ms
 * (trx_i_s_cache), so polling faster would read the same stale snapshot for ever.
 */
const INNODB_TRX_REFRESH_MS = 150;

/** Polls InnoDB until an order's SELECT … FOR UPDATE on the product is queued behind the row lock. */
async function untilWaitingForRowLock(app: StockTestApp, productId: number): Promise<void> {
  const dataSource = app.app.get(DataSource);
  const waiting = () =>
    dataSource.query(`SELECT trx_id FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT' AND trx_query LIKE '%FOR UPDATE%' AND trx_query LIKE ?`, [
      `%id = ${productId} %`,
    ]);
  while ((await waiting()).length === 0) await sleep(INNODB_TRX_REFRESH_MS);
}

describe('db-pessimistic', () => {
  it('a holder paused inside its section keeps the row locked: the next order waits in InnoDB, then reads the committed stock', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 1, strategy: 'db-pessimistic' });
    const first = await holder.pause(() => lab.app.placement.place({ productId, quantity: 1, strategy: 'db-pessimistic' }));

    let secondSettled = false;
    const second = lab.app.placement.place({ productId, quantity: 1, strategy: 'db-pessimistic' }).finally(() => (secondSettled = true));
    await untilWaitingForRowLock(lab.app, productId);
    expect(secondSettled).toBe(false);

    const [a, b] = await Promise.all([first.resume(), second]);
    expect(a.result.outcome).toBe('sold');
    // It read the stock only after the first committed, so it saw the last unit gone.
    expect(b.result.outcome).toBe('sold_out');
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ remaining: 0, sold: 1, oversold: 0, orders: 1, storesAgree: true });
  });

  it('answers lock_timeout, taking nothing, when the holder outlasts the lock wait', async () => {
    const productId = freshProductId();
    await impatient.app.reset.reset(productId, { stock: 5, strategy: 'db-pessimistic' });
    const first = await holder.pause(() => impatient.app.placement.place({ productId, quantity: 1, strategy: 'db-pessimistic' }));

    const second = await impatient.app.placement.place({ productId, quantity: 1, strategy: 'db-pessimistic' });
    expect(second.result.outcome).toBe('lock_timeout');

    expect((await first.resume()).result.outcome).toBe('sold');
    expect(await impatient.app.inventory.inventory(productId)).toMatchObject({ remaining: 4, sold: 1, oversold: 0, orders: 1, storesAgree: true });
  });
});
