import type { InventoryView, RunView } from '@oversell/contracts';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { startTestLab } from '../testing/test-lab';

/** The lock services a lab starts for the strategies it may run (etcd for `etcd`, …), and stops with it. */
let lab: Lab | undefined;
const SERVICES = [
  { strategy: 'etcd', variable: 'ETCD_ENDPOINTS', endpoint: /^http:\/\/127\.0\.0\.1:\d+$/ },
  { strategy: 'zookeeper', variable: 'ZOOKEEPER_CONNECT', endpoint: /^127\.0\.0\.1:\d+$/ },
  { strategy: 'segmented-cluster', variable: 'REDIS_CLUSTER_NODES', endpoint: /^127\.0\.0\.1:\d+(,127\.0\.0\.1:\d+){2}$/ },
  { strategy: 'redlock', variable: 'REDLOCK_NODES', endpoint: /^127\.0\.0\.1:\d+(,127\.0\.0\.1:\d+){4}$/ },
] as const;
const given = Object.fromEntries(SERVICES.map(({ variable }) => [variable, process.env[variable]]));

beforeAll(() => {
  // The lab is to start its own services here, not use those from the environment.
  for (const { variable } of SERVICES) delete process.env[variable];
});

afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

afterAll(() => {
  for (const [variable, value] of Object.entries(given)) if (value !== undefined) process.env[variable] = value;
});

async function call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${lab!.gatewayUrl}${path}`, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Whether something accepts connections on the endpoint's (last) port: etcd's URL, ZooKeeper's host:port, the last of several nodes. */
function listens(endpoint: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(endpoint.slice(endpoint.lastIndexOf(':') + 1)), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

it.each(SERVICES)('starts the service for a lab that runs $strategy, sells with it across 2 instances without overselling, and stops it with the lab', async ({ strategy, variable, endpoint: endpointPattern }) => {
  lab = await startTestLab(2, { strategies: [strategy] });
  const endpoint = lab.lockServices[variable];
  expect(endpoint).toMatch(endpointPattern);
  // Its own, not the run's shared one (jest's globalSetup), which the lab's stop would otherwise take down.
  expect(endpoint).not.toBe(given[variable]);
  expect(await listens(endpoint)).toBe(true);

  const queued = await call<RunView>('POST', '/api/runs', { strategy, initialStock: 60, lockTtlMs: 2000, businessDelayMs: 1, load: { connections: 20, durationSec: 3 } });
  expect(queued.status).toBe(201);
  let run = queued.body;
  while (run.status !== 'completed' && run.status !== 'failed') {
    await sleep(200);
    run = (await call<RunView>('GET', `/api/runs/${run.id}`)).body;
  }
  expect(run.status).toBe('completed');
  expect(run.result!.instances.map((i) => i.instance).sort()).toEqual(['instance-1', 'instance-2']);
  // Every grant is several writes to the lock service, so the stock need not run out within the run: what sold is what left the store.
  const reconciliation = run.result!.reconciliation;
  expect(reconciliation).toMatchObject({ initialStock: 60, oversold: 0, lost: 0, storesAgree: true, exclusionViolations: 0, orders: reconciliation.sold });
  expect(reconciliation.sold).toBeGreaterThan(0);
  expect(reconciliation.sold + reconciliation.remaining).toBe(60);
  expect(run.result!.lockEvents.length).toBeGreaterThan(0);

  await lab.stop();
  lab = undefined;
  expect(await listens(endpoint)).toBe(false);
});

it('starts no etcd for a lab of Redis strategies; an etcd order there is refused (503 naming ETCD_ENDPOINTS) and takes nothing', async () => {
  lab = await startTestLab(1, { strategies: ['uuid-lua'] });
  expect(lab.lockServices).toEqual({});
  const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
  expect((await call('POST', `/api/products/${productId}/reset`, { stock: 10, strategy: 'etcd' })).status).toBe(200);
  const order = await call('POST', '/api/orders', { productId, quantity: 1, strategy: 'etcd' });
  expect(order.status).toBe(503);
  expect(order.body).toMatchObject({ error: 'store_unavailable', message: expect.stringContaining('ETCD_ENDPOINTS') });
  const inventory = (await call<InventoryView>('GET', `/api/products/${productId}/inventory`)).body;
  expect(inventory).toMatchObject({ sold: 0, orders: 0, remaining: 10, oversold: 0 });
});
