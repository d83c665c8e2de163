import type { InventoryView, RunParams, RunView } from '@oversell/contracts';
import { runLoad } from '@oversell/loadtests';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { startTestLab } from './testing/test-lab';

/**
 * The launcher's share of the faults, through the lab's API as a presenter would use it: the instances
 * run with their store-cut proxy (the lab turns it on), and the run's load tool double-clicks; and the
 * Node runner's double click on its own (2 instances behind the gateway, real Redis and MySQL).
 */
let lab: Lab;
/**
 * Longer than an instance may go without a heartbeat (the service's INSTANCE_SILENT_AFTER_MS, 3 s), and
 * past the load's end into the drain and flush: the cut is the stock's and the locks', not the lab's view
 * of the instance or its figures, and must not fail the run whichever instance executes it.
 */
const CUT_MS = 8000;

beforeAll(async () => {
  lab = await startTestLab(2);
});

afterAll(async () => {
  await lab?.stop();
});

async function run(params: RunParams): Promise<RunView> {
  const response = await fetch(`${lab.gatewayUrl}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  const queued = (await response.json()) as RunView;
  expect(response.status).toBe(201);
  for (;;) {
    const view = (await (await fetch(`${lab.gatewayUrl}/api/runs/${queued.id}`)).json()) as RunView;
    if (view.status === 'completed' || view.status === 'failed') return view;
    await sleep(200);
  }
}

it('a store-cut fault cuts a watchdog holder off Redis for real: it answers lock_lost, nothing oversells', async () => {
  const done = await run({
    strategy: 'watchdog',
    initialStock: 40,
    lockTtlMs: 600,
    businessDelayMs: 1,
    load: { connections: 4, durationSec: 4 },
    faults: [{ kind: 'store-cut', at: 'stock-read', durationMs: CUT_MS, instance: 0 }],
  });
  expect(done.failure ?? null).toBeNull();
  expect(done.result!.counts.lock_lost).toBeGreaterThanOrEqual(1);
  expect(done.result!.faults).toEqual([expect.objectContaining({ kind: 'store-cut', at: 'stock-read', instance: 'instance-1' })]);
  const [cut] = done.result!.faults!;
  expect(cut.endedAt! - cut.startedAt).toBeGreaterThanOrEqual(CUT_MS);
  expect(done.result!.reconciliation).toMatchObject({ oversold: 0, lost: 0, storesAgree: true });
});

it.each([
  [true, 30],
  [false, 90],
])('a double-click run (3 copies, key %s) records %i orders for 30 clicks', async (idempotencyKey, orders) => {
  const done = await run({
    strategy: 'uuid-lua',
    initialStock: 200,
    load: { connections: 5, totalRequests: 30 },
    faults: [{ kind: 'double-click', copies: 3, idempotencyKey }],
  });
  expect(done.status).toBe('completed');
  expect(done.result!.reconciliation).toMatchObject({ orders, sold: orders, remaining: 200 - orders, oversold: 0, storesAgree: true });
});

describe('the Node runner double-clicking', () => {
  async function freshProduct(stock: number): Promise<number> {
    const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
    const response = await fetch(`${lab.gatewayUrl}/api/products/${productId}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stock, strategy: 'uuid-lua' }),
    });
    expect(response.status).toBe(200);
    return productId;
  }

  const inventoryOf = async (productId: number) => (await (await fetch(`${lab.gatewayUrl}/api/products/${productId}/inventory`)).json()) as InventoryView;

  /** `clicks` orders of one unit on a fresh uuid-lua product of `stock` units, each sent 3 times at once by 4 buyers. */
  async function doubleClicks(stock: number, clicks: number, idempotencyKey: boolean) {
    const productId = await freshProduct(stock);
    const summary = await runLoad({
      urls: [lab.gatewayUrl],
      target: 'orders',
      productId,
      strategy: 'uuid-lua',
      profile: { connections: 4, totalRequests: clicks },
      doubleClick: { copies: 3, idempotencyKey },
    });
    return { statusCounts: summary.statusCounts, inventory: await inventoryOf(productId) };
  }

  it('with the idempotency key, k copies sent at once make one order per click, and every copy gets that order', async () => {
    const { statusCounts, inventory } = await doubleClicks(100, 12, true);
    // One copy per click took the stock (201); the other two were answered the same order (200, replayed).
    expect(statusCounts).toEqual({ '201': 12, '200': 24 });
    expect(inventory).toMatchObject({ orders: 12, sold: 12, remaining: 88, oversold: 0, storesAgree: true });
  });

  it('without the key, every copy is an order of its own while the stock lasts', async () => {
    const { statusCounts, inventory } = await doubleClicks(20, 8, false);
    // 8 clicks × 3 copies = 24 orders asked for; 20 units: 20 sold, 4 sold out.
    expect(statusCounts).toEqual({ '201': 20, '409': 4 });
    expect(inventory).toMatchObject({ orders: 20, sold: 20, remaining: 0, oversold: 0, storesAgree: true });
  });
});
