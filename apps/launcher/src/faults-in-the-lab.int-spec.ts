import type { RunParams, RunView } from '@oversell/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { startTestLab } from './testing/test-lab';

/**
 * The launcher's share of the faults, through the lab's API as a presenter would use it: the instances
 * run with their store-cut proxy (the lab turns it on), and the run's load tool double-clicks.
 */
let lab: Lab;

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
    faults: [{ kind: 'store-cut', at: 'stock-read', durationMs: 1500, instance: 0 }],
  });
  expect(done.failure ?? null).toBeNull();
  expect(done.result!.counts.lock_lost).toBeGreaterThanOrEqual(1);
  expect(done.result!.faults).toEqual([expect.objectContaining({ kind: 'store-cut', at: 'stock-read', instance: 'instance-1' })]);
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
