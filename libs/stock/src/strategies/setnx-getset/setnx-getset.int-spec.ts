import type { LockEvent } from '@oversell/contracts';
import { Gate } from '@oversell/locks/testing';
import { LockEvents } from '../../lock-events';
import { createStockTestApp, freshProductId, useStockTestApp, type StockTestApp } from '../../testing';

const STRATEGY = 'setnx-getset';
const LEASE_MS = 5000;
/** Far more than the lease: by this clock every stamp the holder writes is already in the past. */
const SKEW_MS = 60_000;
/** The peers give up quickly, well within the holder's lease. */
const PEER_WAIT_MS = 300;

let gate: Gate;
// The holder instance, on the correct clock: its order stops inside the section, after reading the stock.
const holder = useStockTestApp({ instanceId: 'holder', faultHooks: [(point) => (point === 'stock-read' ? gate.pass() : undefined)] });
let skewed: StockTestApp;
let sameClock: StockTestApp;
const holdings: { runId: string; event: LockEvent }[] = [];

beforeAll(async () => {
  // Two more instances of the service on the same Redis keys and MySQL tables.
  [skewed, sameClock] = await Promise.all([
    createStockTestApp({ keyPrefix: holder.keyPrefix, instanceId: 'skewed', clockOffsetMs: SKEW_MS, lockWaitTimeoutMs: PEER_WAIT_MS }),
    createStockTestApp({ keyPrefix: holder.keyPrefix, instanceId: 'same-clock', lockWaitTimeoutMs: PEER_WAIT_MS }),
  ]);
  for (const instance of [holder.app, skewed, sameClock]) instance.app.get(LockEvents).subscribe((runId, _strategy, event) => holdings.push({ runId, event }));
});

afterAll(() => Promise.all([skewed?.close(), sameClock?.close()]));

/** One order paused inside the lock on the holder while `peer` orders the same last unit. */
async function peerOrdersWhileHolderInside(peer: StockTestApp) {
  gate = new Gate();
  const productId = freshProductId();
  const settings = await holder.app.reset.reset(productId, { stock: 1, strategy: STRATEGY, lockTtlMs: LEASE_MS, businessDelayMs: 0 });
  const first = holder.app.placement.place({ productId, quantity: 1, strategy: STRATEGY });
  await gate.arrived();
  const second = await peer.placement.place({ productId, quantity: 1, strategy: STRATEGY });
  gate.release();
  const outcomes = [(await first).result.outcome, second.result.outcome];
  const inventory = await holder.app.inventory.inventory(productId);
  // Lock events are stamped on each process's true clock (the offset only moves the lock's stamps), so they compare.
  const byInstance = Object.fromEntries(holdings.filter((h) => h.runId === settings.runId).map((h) => [h.event.instance, h.event]));
  return { outcomes, inventory, byInstance };
}

describe('setnx-getset when the holder is paused inside its section (TTL 5 s, holder well within it)', () => {
  it('pitfall 1: an instance whose clock runs 60 s ahead reads the live stamp as expired, takes the lock over and sells the same unit', async () => {
    const { outcomes, inventory, byInstance } = await peerOrdersWhileHolderInside(skewed);
    expect(outcomes).toEqual(['sold', 'sold']);
    expect(inventory).toMatchObject({ sold: 2, oversold: 1, remaining: 0, storesAgree: false });
    // Two holders at once: the skewed instance got the lock after the holder did and before it let go.
    const { holder: first, skewed: second } = byInstance;
    expect(second.acquiredAt).toBeGreaterThan(first.acquiredAt);
    expect(second.acquiredAt).toBeLessThan(first.releasedAt);
    // The holder's release found its stamp gone: it had lost the lock without knowing.
    expect(first.expired).toBe(true);
  });

  it('with the same clock the peer waits, times out, and nothing is oversold', async () => {
    const { outcomes, inventory, byInstance } = await peerOrdersWhileHolderInside(sameClock);
    expect(outcomes).toEqual(['sold', 'lock_timeout']);
    expect(inventory).toMatchObject({ sold: 1, oversold: 0, remaining: 0, storesAgree: true });
    expect(Object.keys(byInstance)).toEqual(['holder']);
    expect(byInstance.holder.expired).toBe(false);
  });
});
