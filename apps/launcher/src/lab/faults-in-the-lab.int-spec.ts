import type { FaultEvent, InventoryView, OrderView, RunParams, RunView } from '@oversell/contracts';
import { runLoad } from '@oversell/loadtests';
import Redis from 'ioredis';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { REPO_ROOT } from './paths';
import { startTestLab, testLabEnv } from '../testing/test-lab';

/**
 * The launcher's share of the faults, through the lab's API as a presenter would use it: the instances
 * run with their store-cut proxy (the lab turns it on), and the run's load tool double-clicks; and the
 * Node runner's double click on its own (2 instances behind the gateway, real Redis and MySQL).
 */
let lab: Lab;
const labEnv = testLabEnv();
/**
 * Longer than an instance may go without a heartbeat (the service's INSTANCE_SILENT_AFTER_MS, 3 s), and
 * past the load's end into the drain and flush: the cut is the stock's and the locks', not the lab's view
 * of the instance or its figures, and must not fail the run whichever instance executes it.
 */
const CUT_MS = 8000;

beforeAll(async () => {
  lab = await startTestLab(2, { env: labEnv });
});

afterAll(async () => {
  await lab?.stop();
});

/** The run's fault events, and how often its first fault's point was passed (an `every` fault's counter), as the instances left them in Redis. */
async function faultsOf(runId: string): Promise<{ events: FaultEvent[]; passages: number }> {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  const key = (suffix: string) => `${labEnv.REDIS_KEY_PREFIX}:run:{${runId}}:${suffix}`;
  try {
    const [json, passages] = await Promise.all([redis.lrange(key('faults'), 0, -1), redis.get(key('fault:0:passages'))]);
    return { events: json.map((event) => JSON.parse(event) as FaultEvent), passages: Number(passages) };
  } finally {
    redis.disconnect();
  }
}

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
  // On no instance in particular: the first stock-read with stock left fires it. Pinned to one instance it
  // could miss the whole sale while the other instance's line kept the lock (seen once in a full run).
  const done = await run({
    strategy: 'watchdog',
    initialStock: 40,
    lockTtlMs: 600,
    businessDelayMs: 1,
    load: { connections: 4, durationSec: 4 },
    faults: [{ kind: 'store-cut', at: 'stock-read', durationMs: CUT_MS }],
  });
  expect(done.failure ?? null).toBeNull();
  expect(done.result!.counts.lock_lost).toBeGreaterThanOrEqual(1);
  expect(done.result!.faults).toEqual([expect.objectContaining({ kind: 'store-cut', at: 'stock-read', instance: expect.stringMatching(/^instance-[12]$/) })]);
  const [cut] = done.result!.faults!;
  // Timed by setTimeout on libuv's whole-millisecond loop clock: against the event's precise clock it may end up to 1 ms early.
  expect(cut.endedAt! - cut.startedAt).toBeGreaterThanOrEqual(CUT_MS - 1);
  expect(done.result!.reconciliation).toMatchObject({ oversold: 0, lost: 0, storesAgree: true });
});

describe('a MySQL store cut', () => {
  const MYSQL_CUT_MS = 1500;
  const mysqlCut = (at: 'stock-written' | 'stock-read') => ({ kind: 'store-cut', store: 'mysql', at, durationMs: MYSQL_CUT_MS, instance: 0 }) as const;

  it('rolls back the order whose transaction it cut: 503 store_unavailable naming mysql, the stock row untouched, no order', async () => {
    const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
    const [first] = lab.instances;
    const reset = await fetch(`${first.url}/api/products/${productId}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stock: 10, strategy: 'db-conditional', faults: [mysqlCut('stock-written')] }),
    });
    expect(reset.status).toBe(200);
    // Cut between the UPDATE and the order INSERT, inside the transaction; the answer comes once the cut is over.
    const order = await fetch(`${first.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ productId, quantity: 1, strategy: 'db-conditional' }) });
    expect(order.status).toBe(503);
    expect(await order.json()).toMatchObject({ error: 'store_unavailable', message: expect.stringMatching(/^mysql is unavailable/) });
    const inventory = (await (await fetch(`${first.url}/api/products/${productId}/inventory`)).json()) as InventoryView;
    expect(inventory).toMatchObject({ remaining: 10, sold: 0, orders: 0, oversold: 0, storesAgree: true });
    // The instance's pool reconnects once the cut is over: the next order is sold.
    const next = await fetch(`${first.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ productId, quantity: 1, strategy: 'db-conditional' }) });
    expect(next.status).toBe(201);
  });

  it.each(['db-conditional', 'db-pessimistic'] as const)('mid-run on %s: the run completes, orders during the cut fail, nothing is lost or oversold, MySQL orders = units taken', async (strategy) => {
    const done = await run({ strategy, initialStock: 20_000, load: { connections: 4, durationSec: 5 }, faults: [mysqlCut('stock-written')] });
    expect(done.failure ?? null).toBeNull();
    expect(done.status).toBe('completed');
    const result = done.result!;
    expect(result.faults).toEqual([expect.objectContaining({ kind: 'store-cut', store: 'mysql', at: 'stock-written', instance: 'instance-1' })]);
    const [cut] = result.faults!;
    // The cut is timed by setTimeout, on libuv's whole-millisecond loop clock: against the event's precise clock it may end up to 1 ms early.
    expect(cut.endedAt! - cut.startedAt).toBeGreaterThanOrEqual(MYSQL_CUT_MS - 1);
    expect(result.counts.error).toBeGreaterThanOrEqual(1);
    expect(result.counts.sold).toBeGreaterThan(0);
    const { reconciliation } = result;
    expect(reconciliation).toMatchObject({ oversold: 0, lost: 0, storesAgree: true });
    expect(reconciliation.orders).toBe(reconciliation.sold);
    expect(reconciliation.initialStock - reconciliation.remaining).toBe(reconciliation.sold);
  });

  describe('at every Nth passage of its point, counted over both instances', () => {
    const cutEvery = (every: number, durationMs: number) => ({ kind: 'store-cut', store: 'mysql', at: 'stock-written', every, durationMs }) as const;
    const ONE_CUT_MS = 300;
    const post = async <T>(url: string, body: object) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as T };
    };

    it('every: 3, ten orders one after another, alternately on each instance: the 3rd, 6th and 9th are cut (rolled back, 503) and no other; every 201 is a row in MySQL, nothing stranded', async () => {
      const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
      const reset = await post<{ runId: string }>(`${lab.instances[0].url}/api/products/${productId}/reset`, { stock: 20, strategy: 'db-conditional', faults: [cutEvery(3, ONE_CUT_MS)] });
      expect(reset.status).toBe(200);
      const order = (i: number) => ({ productId, quantity: 1, strategy: 'db-conditional', idempotencyKey: `every-${productId}-${i}` });
      const answers: { status: number; body: OrderView & { error?: string } }[] = [];
      // One at a time: passage n is order n, and no cut overlaps another order.
      for (let i = 0; i < 10; i++) answers.push(await post(`${lab.instances[i % 2].url}/api/orders`, order(i)));

      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 503, 201, 201, 503, 201, 201, 503, 201]);
      for (const cut of answers.filter((answer) => answer.status === 503)) expect(cut.body).toMatchObject({ error: 'store_unavailable' });
      const { events, passages } = await faultsOf(reset.body.runId);
      expect(passages).toBe(10);
      // Passages 3 and 9 were orders to the first instance, 6 to the second: each cut its own instance off MySQL.
      const [first, second] = lab.instances.map((instance) => instance.spec.id);
      expect(events.map((event) => [event.kind, event.store, event.at, event.instance])).toEqual([first, second, first].map((instance) => ['store-cut', 'mysql', 'stock-written', instance]));
      // Timed by setTimeout on libuv's whole-millisecond loop clock: against the event's precise clock it may end up to 1 ms early.
      for (const event of events) expect(event.endedAt! - event.startedAt).toBeGreaterThanOrEqual(ONE_CUT_MS - 1);

      const inventory = (await (await fetch(`${lab.gatewayUrl}/api/products/${productId}/inventory`)).json()) as InventoryView;
      expect(inventory).toMatchObject({ initialStock: 20, remaining: 13, sold: 7, orders: 7, oversold: 0, lost: 0, storesAgree: true });
      // Each 201 is its row: sent again with its key, the order is found in MySQL and answered again (200), the same id.
      // On a run without the fault: a copy tries the take again (its INSERT then meets the key), and would pass the point.
      expect((await post(`${lab.gatewayUrl}/api/products/${productId}/reset`, { stock: 20, strategy: 'db-conditional' })).status).toBe(200);
      for (const [i, answer] of answers.entries()) {
        if (answer.status === 201) expect(await post(`${lab.gatewayUrl}/api/orders`, order(i))).toMatchObject({ status: 200, body: { id: answer.body.id, replayed: true } });
      }
    });

    it.each(['db-conditional', 'lua-decrement'] as const)('every: 20, a run of %s under load: one cut per 20 passages, no more, no fewer; nothing stranded or conjured, every order sold has its row', async (strategy) => {
      // Cuts of one instance overlap under load (a cut holds it off MySQL until the last one ends): a short one keeps orders selling between them.
      const done = await run({ strategy, initialStock: 20_000, load: { connections: 4, durationSec: 3 }, faults: [cutEvery(20, 50)] });
      expect(done.failure ?? null).toBeNull();
      expect(done.status).toBe('completed');
      const result = done.result!;
      const { events, passages } = await faultsOf(done.id);
      console.log(`${strategy}, a MySQL cut every 20th stock-written: ${JSON.stringify({ passages, cuts: events.length, counts: result.counts, reconciliation: { remaining: result.reconciliation.remaining, sold: result.reconciliation.sold, orders: result.reconciliation.orders } })}`);
      expect(passages).toBeGreaterThanOrEqual(40);
      expect(events).toHaveLength(Math.floor(passages / 20));
      expect(result.faults).toHaveLength(events.length);
      expect(new Set(events.map((event) => event.requestId)).size).toBe(events.length);
      const { reconciliation } = result;
      expect(reconciliation).toMatchObject({ oversold: 0, lost: 0, storesAgree: true });
      // Units taken are the orders recorded, and stock left + sold is the initial stock.
      expect(reconciliation.orders).toBe(reconciliation.sold);
      expect(reconciliation.remaining + reconciliation.sold).toBe(reconciliation.initialStock);
      // Every 201 has its row (an order may have its row and no 201: its client's answer was the cut).
      expect(result.counts.sold).toBeGreaterThan(0);
      expect(result.counts.sold).toBeLessThanOrEqual(reconciliation.orders);
    });
  });

  it('lasting past the load\'s end, on the instance running the run, does not fail it: the drain waits for the cut order, then it reconciles', async () => {
    const outlasting = { ...mysqlCut('stock-written'), durationMs: 6000 };
    const done = await run({ strategy: 'db-conditional', initialStock: 20_000, load: { connections: 4, durationSec: 3 }, faults: [outlasting] });
    expect(done.failure ?? null).toBeNull();
    const [cut] = done.result!.faults!;
    expect(cut).toMatchObject({ kind: 'store-cut', store: 'mysql', instance: 'instance-1' });
    // instance-1 (index 0, the lowest port) runs the run's worker in this lab.
    expect(done.result!.executor).toBe('instance-1');
    expect(cut.endedAt! - cut.startedAt).toBeGreaterThanOrEqual(6000);
    expect(cut.endedAt!).toBeGreaterThan(Date.parse(done.startedAt!) + 3000);
    expect(done.result!.reconciliation).toMatchObject({ oversold: 0, lost: 0, storesAgree: true });
  });
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
  // The copies answered with their click's first order are replays, not sales.
  expect(done.result!.counts).toMatchObject({ sold: orders, replayed: 90 - orders });
  // Listed with the run's other faults: on the instance whose worker drove the load, over the load's span, with what it sent.
  expect(done.result!.faults).toEqual([
    expect.objectContaining({ kind: 'double-click', at: null, instance: done.result!.executor, requestId: null, doubleClick: { clicks: 30, copies: 3, idempotencyKey } }),
  ]);
  const [click] = done.result!.faults!;
  expect(click.endedAt!).toBeGreaterThan(click.startedAt);
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

describe('npm run load (the Node runner\'s CLI, built) against the lab', () => {
  const LOAD_CLI = join(REPO_ROOT, 'loadtests', 'dist', 'cli.js');
  const workDir = mkdtempSync(join(tmpdir(), 'oversell-load-cli-'));

  function load(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [LOAD_CLI, '--url', lab.gatewayUrl, ...args], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
    });
  }

  /** A scenario file of the test's own, passed to --scenario by its path. */
  function scenarioFile(name: string, fields: object): string {
    const file = join(workDir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ name, description: 'a lab test scenario', ...fields }));
    return file;
  }

  /** The CLI's --json record: what the client saw and the inventory read back after the load. */
  const recordOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { client: { statusCounts: Record<string, number> }; inventory: InventoryView };

  it('sends the scenario\'s faults with the reset and the service injects them: store-cut-lock-lost cuts the first holder off Redis, nothing oversells', async () => {
    const json = join(workDir, 'store-cut.json');
    const result = await load(['--scenario', 'store-cut-lock-lost', '--json', json]);
    expect(result.code).toBe(0);
    const { client, inventory } = recordOf(json);
    const { events } = await faultsOf(inventory.runId);
    // On no instance in particular, as in the test above: pinned to one, it could miss the whole sale.
    expect(events).toEqual([expect.objectContaining({ kind: 'store-cut', at: 'stock-read', instance: expect.stringMatching(/^instance-[12]$/) })]);
    expect(events[0].endedAt! - events[0].startedAt).toBeGreaterThanOrEqual(1500);
    // The cut holder's order is refused (503), not written: sold = orders, nothing oversold.
    expect(client.statusCounts['503']).toBeGreaterThanOrEqual(1);
    expect(inventory).toMatchObject({ oversold: 0, storesAgree: true });
    expect(inventory.sold).toBe(inventory.orders);
  });

  it('prints the service\'s 400 naming the fault\'s field and exits 1 when the lab refuses a scenario\'s fault', async () => {
    // Valid on its own (the CLI checks that), refused by the lab: it has 2 instances, not 6.
    const file = scenarioFile('too-far', { strategy: 'uuid-lua', initialStock: 5, load: { connections: 1, totalRequests: 1 }, faults: [{ kind: 'pause', at: 'stock-read', durationMs: 5, instance: 5 }] });
    const result = await load(['--scenario', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/load run failed: POST \/api\/products\/\d+\/reset answered 400 validation_failed on faults\[0\]\.instance: faults\[0\]\.instance is 5, but only 2 instance\(s\) are live/);
  });

  it.each([
    [[] as string[], 10, { '201': 10, '200': 20 }],
    [['--no-idempotency-key'], 30, { '201': 30 }],
  ])('--double-click=3 %j: 10 clicks make %i orders', async (flags, orders, statusCounts) => {
    const file = scenarioFile('clicks', { strategy: 'uuid-lua', initialStock: 200, load: { connections: 4, totalRequests: 10 } });
    const json = join(workDir, 'clicks-out.json');
    const result = await load(['--scenario', file, '--double-click=3', ...flags, '--json', json]);
    expect(result.code).toBe(0);
    const { client, inventory } = recordOf(json);
    expect(client.statusCounts).toEqual(statusCounts);
    expect(inventory).toMatchObject({ orders, sold: orders, remaining: 200 - orders, oversold: 0, storesAgree: true });
  });
});
