import type { StrategyName } from '@oversell/contracts';
import type { FaultPoint } from '../fault-points';
import { freshProductId, placeOrderFrozenAt, useStockTestApp } from '../testing';

/**
 * The GC pause of the Kleppmann debate, for real: a holder in an OS process of its own has its whole
 * event loop blocked (Atomics.wait) inside its section, longer than the lease, so the watchdog's
 * renewals freeze with it. Meanwhile the lease runs out and another instance (this test's) takes the
 * lock and sells the last unit; then the frozen holder wakes and carries on.
 */
const LEASE_MS = 300;

const lab = useStockTestApp({ instanceId: 'taker', lockWaitTimeoutMs: 10_000 });

async function staleHolderAgainstTaker(strategy: StrategyName, at: FaultPoint) {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: 1, strategy, lockTtlMs: LEASE_MS, businessDelayMs: 0 });
  const stale = await placeOrderFrozenAt({ keyPrefix: lab.keyPrefix, productId, strategy, at });
  // The stale holder is frozen holding the lock: this order gets it only because its lease ran out.
  const taker = (await lab.app.placement.place({ productId, quantity: 1, strategy })).result.outcome;
  const staleOutcome = await stale.wake();
  return { taker, stale: staleOutcome, inventory: await lab.app.inventory.inventory(productId) };
}

describe(`a stop-the-world pause past the lease (${LEASE_MS} ms), the holder frozen after reading the last unit`, () => {
  it('watchdog double-grants and oversells: the frozen holder wakes and writes the stock it read', async () => {
    const { taker, stale, inventory } = await staleHolderAgainstTaker('watchdog', 'stock-read');
    expect([taker, stale]).toEqual(['sold', 'sold']);
    expect(inventory).toMatchObject({ sold: 2, orders: 2, oversold: 1, storesAgree: false });
  });

  it.each<StrategyName>(['watchdog-fenced', 'watchdog-fenced-mysql'])('%s double-grants too, but the stock refuses the stale holder: fenced, 0 oversold', async (strategy) => {
    const { taker, stale, inventory } = await staleHolderAgainstTaker(strategy, 'stock-read');
    expect([taker, stale]).toEqual(['sold', 'fenced']);
    expect(inventory).toMatchObject({ sold: 1, orders: 1, oversold: 0, remaining: 0, storesAgree: true });
  });
});

describe('the same pause with the holder frozen right after the grant, before it read the stock', () => {
  it.each<StrategyName>(['watchdog-fenced', 'watchdog-fenced-mysql'])('%s refuses the stale holder at its read: fenced, 0 oversold', async (strategy) => {
    const { taker, stale, inventory } = await staleHolderAgainstTaker(strategy, 'lock-acquired');
    expect([taker, stale]).toEqual(['sold', 'fenced']);
    expect(inventory).toMatchObject({ sold: 1, orders: 1, oversold: 0, remaining: 0, storesAgree: true });
  });
});

describe('RedLock, whose validity is fixed at the grant: the holder frozen past it after reading the last unit', () => {
  // Woken in one turn of its event loop, it reaches its check before the validity's timer has run: the
  // check must read the clock (knownLost), or it writes the unit the taker sold too.
  it.each<StrategyName>(['redlock', 'redlock-lib', 'redlock-delayed-restart'])('%s tells the stale holder at its check: lock_lost, 0 oversold', async (strategy) => {
    const { taker, stale, inventory } = await staleHolderAgainstTaker(strategy, 'stock-read');
    expect([taker, stale]).toEqual(['sold', 'lock_lost']);
    expect(inventory).toMatchObject({ sold: 1, orders: 1, oversold: 0, remaining: 0, storesAgree: true });
  });
});
