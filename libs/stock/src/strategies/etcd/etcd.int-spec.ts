import { StoreUnavailableError } from '../../errors';
import type { FaultPoint } from '../../fault-points';
import { createStockTestApp, freshProductId, placeOrderFrozenAt, runOrdersAcrossProcesses, useStockTestApp } from '../../testing';

/** The etcd strategy on the real etcd the stock tests' globalSetup started (ETCD_ENDPOINTS). */
const lab = useStockTestApp();

// Port 1 (tcpmux) is never served on a test machine: connections are refused at once.
const NOTHING_LISTENS = 'http://127.0.0.1:1';

it('keeps the lock past the TTL while the holder works (business 1.5 s > lease 1 s): 3 processes sell exactly the stock, none loses the lock', async () => {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: 6, strategy: 'etcd', lockTtlMs: 1000, businessDelayMs: 1500 });
  const { outcomes, errors } = await runOrdersAcrossProcesses({ processes: 3, requestsPerProcess: 3, inFlight: 3, keyPrefix: lab.keyPrefix, productId, strategy: 'etcd' });
  expect(errors).toEqual([]);
  expect(outcomes).toMatchObject({ sold: 6, sold_out: 3, lock_lost: 0, fenced: 0 });
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 6, remaining: 0, oversold: 0, orders: 6, storesAgree: true });
});

it('an etcd that does not answer: the order fails as etcd unavailable (not Redis), nothing taken', async () => {
  const unreachable = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId: 'no-etcd', lockServices: { etcd: NOTHING_LISTENS } });
  try {
    const productId = freshProductId();
    await unreachable.reset.reset(productId, { stock: 3, strategy: 'etcd' });
    const { result } = await unreachable.placement.place({ productId, quantity: 1, strategy: 'etcd' });
    expect(result.outcome === 'error' && result.error).toBeInstanceOf(StoreUnavailableError);
    expect(result.outcome === 'error' && result.error).toMatchObject({ store: 'etcd', message: expect.stringMatching(/^etcd is unavailable/) });
    expect(await unreachable.inventory.inventory(productId)).toMatchObject({ sold: 0, remaining: 3, orders: 0 });
  } finally {
    await unreachable.close();
  }
});

/**
 * The GC pause past the lease, for real (as stop-the-world.int-spec does for the watchdog): the holder's
 * process is frozen inside its section, so its keepalives stop, etcd expires its lease and deletes its
 * key, and this test's order is granted the lock. The frozen holder then wakes: it must not sell.
 */
it.each<FaultPoint>(['lock-acquired', 'stock-read'])('a stop-the-world pause past the lease at %s: the next order gets the lock and sells the last unit; the stale holder is refused (fenced or lock_lost), 0 oversold', async (at) => {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: 1, strategy: 'etcd', lockTtlMs: 1000, businessDelayMs: 0 });
  const stale = await placeOrderFrozenAt({ keyPrefix: lab.keyPrefix, productId, strategy: 'etcd', at });
  const taker = (await lab.app.placement.place({ productId, quantity: 1, strategy: 'etcd' })).result.outcome;
  const staleOutcome = await stale.wake();
  // Printed: which of the two stopped it (so far always the fence: the woken holder reaches the stock before its lease signal fires).
  console.log(`etcd, pause at ${at}: taker ${taker}, stale holder ${staleOutcome}`);
  expect(taker).toBe('sold');
  expect(['fenced', 'lock_lost']).toContain(staleOutcome);
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 1, orders: 1, oversold: 0, remaining: 0, storesAgree: true });
});
