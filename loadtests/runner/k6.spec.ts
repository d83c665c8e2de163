import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { k6StrategyNamesModule, type InventoryView, type StrategyDescription } from '@oversell/contracts';
import { findK6, K6_SCRIPTS_DIR, parseK6Summary, runK6, runK6Load, type K6SummaryData } from './k6';
import type { LoadOptions } from './summary';
import { InvalidFieldError } from './validation';

/** Where k6 runs the scripts from, as the README says: the summaries' default paths are relative to it. */
const REPO_ROOT = resolve(K6_SCRIPTS_DIR, '..', '..');

/** Shaped like k6's handleSummary() data for a run of the scripts in loadtests/k6. */
const K6_DATA: K6SummaryData = {
  state: { testRunDurationMs: 8000 },
  metrics: {
    http_reqs: { values: { count: 4003, rate: 500 } },
    http_req_duration: { values: { avg: 99, med: 99, max: 999, 'p(90)': 99, 'p(99)': 99 } },
    'http_req_duration{endpoint:order}': { values: { avg: 12.5, med: 10, max: 80, 'p(90)': 20, 'p(99)': 45 } },
    order_status_201: { values: { count: 500, rate: 62.5 } },
    order_status_409: { values: { count: 3400, rate: 425 } },
    order_status_503: { values: { count: 100, rate: 12.5 } },
    order_status_404: { values: { count: 0, rate: 0 } },
    order_status_0: { values: { count: 3, rate: 0.4 } },
    order_timeouts: { values: { count: 2, rate: 0.25 } },
  },
};

function k6Files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? k6Files(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
  );
}

/** An executable that stands in for k6: records its arguments and writes K6_DATA to SUMMARY_PATH. */
function fakeK6(exitCode: number): { bin: string; argsFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'oversell-fake-k6-'));
  const bin = join(dir, 'k6');
  const argsFile = join(dir, 'args.json');
  writeFileSync(
    bin,
    `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(args));
const summaryPath = args.find((arg) => arg.startsWith('SUMMARY_PATH=')).slice('SUMMARY_PATH='.length);
fs.writeFileSync(summaryPath, ${JSON.stringify(JSON.stringify(K6_DATA))});
process.exit(${exitCode});
`,
  );
  chmodSync(bin, 0o755);
  return { bin, argsFile };
}

describe('k6 scripts', () => {
  const files = k6Files(K6_SCRIPTS_DIR);

  it('are all there', () => {
    expect(files.map((file) => file.slice(K6_SCRIPTS_DIR.length + 1)).sort()).toEqual(
      ['compare-strategies.js', 'flash-sale.js', 'lib/common.js', 'lib/strategy-names.js'].sort(),
    );
  });

  it.each(files)('%s parses (node --check)', (file) => {
    expect(() => execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' })).not.toThrow();
  });

  // The list is generated from the catalogue (npm run generate): a checked-in copy that differs is stale.
  it('list the strategies of the catalogue, as generated from it', () => {
    expect(readFileSync(join(K6_SCRIPTS_DIR, 'lib', 'strategy-names.js'), 'utf8')).toBe(k6StrategyNamesModule());
  });
});

interface StubbedRun {
  options: { scenarios: Record<string, Record<string, unknown>>; thresholds: Record<string, string[]> };
  outputs: string[];
  requests: {
    method: string;
    url: string;
    body?: Record<string, unknown>;
    headers?: Record<string, string>;
    tags: Record<string, string>;
    /** Which http.batch sent it, when one did. */
    batch?: number;
  }[];
  checks: { name: string; ok: boolean; tags: Record<string, string> }[];
}

type StubbedInventory = Omit<InventoryView, 'productId' | 'runId' | 'strategy'>;

/** A run with the service's default settings (lease 2000 ms, no business delay) that sold exactly its stock. */
const SAFE_INVENTORY: StubbedInventory = { initialStock: 100, lockTtlMs: 2000, businessDelayMs: 0, sold: 100, remaining: 0, orders: 100, oversold: 0, storesAgree: true, lost: 0, lostUpdates: 0, soldTwice: 0, settledLate: { pending: 0, kept: 0, givenBack: 0 }, moves: null, storeLost: false };
const OVERSOLD_INVENTORY: StubbedInventory = { ...SAFE_INVENTORY, sold: 103, orders: 103, oversold: 3, lostUpdates: 3, soldTwice: 3, storesAgree: false };
/** The settings of the expiry-pitfall scenario: the business takes longer than the lease. */
const LEASE_OUTLIVED = { lockTtlMs: 100, businessDelayMs: 250 };

/** What GET /api/strategies says of the strategies these tests run: the fields the k6 scripts read, as libs/stock describes them. */
const DESCRIPTIONS: Pick<StrategyDescription, 'name' | 'kind' | 'lease'>[] = [
  { name: 'no-lock', kind: 'none', lease: 'none' },
  { name: 'setnx-no-ttl', kind: 'lock', lease: 'none' },
  { name: 'naive-setnx', kind: 'lock', lease: 'fixed' },
  { name: 'uuid-lua', kind: 'lock', lease: 'fixed' },
  { name: 'watchdog', kind: 'lock', lease: 'renewed' },
  { name: 'segmented', kind: 'lock', lease: 'fixed' },
  { name: 'lua-decrement', kind: 'atomic', lease: 'none' },
  { name: 'db-lock-table-ttl', kind: 'lock', lease: 'fixed' },
  { name: 'db-optimistic', kind: 'database', lease: 'none' },
];
const DESCRIBED = DESCRIPTIONS.map((description) => description.name).join(',');

/** Runs a script's init, setup, one iteration (the scenario's `iteration`th), teardown and handleSummary with k6's modules stubbed. */
function runStubbed(script: string, env: Record<string, string>, inventory = SAFE_INVENTORY, descriptions = DESCRIPTIONS, iteration = 0): StubbedRun {
  const stdout = execFileSync(process.execPath, [join(__dirname, 'test-support', 'k6-stub', 'run-script.mjs'), join(K6_SCRIPTS_DIR, script)], {
    env: { ...process.env, K6_ENV: JSON.stringify(env), K6_INVENTORY: JSON.stringify(inventory), K6_STRATEGIES: JSON.stringify(descriptions), K6_ITERATION: String(iteration) },
    encoding: 'utf8',
    // Captured rather than inherited: stubbedError() reads what a failing script wrote there.
    stdio: 'pipe',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as StubbedRun;
}

/** The inventory checks of a stubbed run, by strategy: whether each passed. */
function inventoryChecks(run: StubbedRun): Record<string, boolean> {
  return Object.fromEntries(run.checks.filter((check) => check.tags.kind === 'inventory').map((check) => [check.tags.strategy, check.ok]));
}

/**
 * How k6 judges the run's `checks{kind:inventory,…}` thresholds over the checks the stubbed run made: a
 * check matches when it carries every tag the threshold names; `rate==x` / `rate>x` compare the share that passed.
 */
function inventoryThresholds(run: StubbedRun): Record<string, 'holds' | 'fails'> {
  const verdicts: Record<string, 'holds' | 'fails'> = {};
  for (const [metric, rules] of Object.entries(run.options.thresholds)) {
    const filter = /^checks\{(.*kind:inventory.*)\}$/.exec(metric)?.[1];
    if (filter === undefined) continue;
    const tags = filter.split(',').map((pair) => pair.split(':'));
    const checks = run.checks.filter((check) => tags.every(([key, value]) => check.tags[key] === value));
    if (checks.length === 0) throw new Error(`no check feeds the threshold ${metric}`);
    const rate = checks.filter((check) => check.ok).length / checks.length;
    const holds = rules.every((rule) => {
      const [, operator, bound] = /^rate(==|>)([\d.]+)$/.exec(rule)!;
      return operator === '==' ? rate === Number(bound) : rate > Number(bound);
    });
    verdicts[metric] = holds ? 'holds' : 'fails';
  }
  return verdicts;
}

/** The verdict of each strategy's own inventory threshold in compare-strategies. */
function thresholdByStrategy(run: StubbedRun): Record<string, 'holds' | 'fails'> {
  return Object.fromEntries(
    Object.entries(inventoryThresholds(run)).map(([metric, verdict]) => [/strategy:([^,}]+)/.exec(metric)![1], verdict]),
  );
}

/** What a script throws from its init code or setup(), run with k6's modules stubbed. */
function stubbedError(script: string, env: Record<string, string>, descriptions = DESCRIPTIONS): string {
  try {
    runStubbed(script, env, SAFE_INVENTORY, descriptions);
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
  throw new Error(`${script} ran without an error`);
}

/** The -e KEY=VALUE pairs of a recorded k6 command line. */
function envOfArgs(args: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  args.forEach((arg, index) => {
    if (args[index - 1] !== '-e') return;
    const at = arg.indexOf('=');
    env[arg.slice(0, at)] = arg.slice(at + 1);
  });
  return env;
}

describe('k6 scripts, run with k6 stubbed', () => {
  it('flash-sale resets the product, posts a keyed order round-robin, and builds its options from the scenario', () => {
    const run = runStubbed('flash-sale.js', { STRATEGY: 'watchdog', BASE_URL: 'http://a:1/,http://b:2', PRODUCT_ID: '42' });

    expect(run.options.scenarios['flash-sale']).toMatchObject({ executor: 'constant-vus', vus: 200, duration: '10s' });
    expect(run.options.thresholds['http_req_duration{endpoint:order}']).toEqual(['p(99)<2000']);
    // Before anything is reset: the service's description of the strategy.
    expect(run.requests[0]).toMatchObject({ method: 'GET', url: 'http://a:1/api/strategies' });
    expect(run.requests[1]).toMatchObject({
      url: 'http://a:1/api/products/42/reset',
      body: { stock: 1000, strategy: 'watchdog', lockTtlMs: 2000, businessDelayMs: 0 },
    });
    // __VU 1 + __ITER 0 picks the second URL.
    expect(run.requests[2]).toMatchObject({ url: 'http://b:2/api/orders', body: { productId: 42, quantity: 1, strategy: 'watchdog' } });
    expect(run.requests[2].body?.idempotencyKey).toEqual(expect.stringMatching(/^k6-watchdog-1-0-/));
    expect(run.checks).toContainEqual({ name: 'order is 201 (202 queued, 200 for a replayed key) or an expected 409/503', ok: true, tags: { kind: 'order' } });
    expect(run.requests[2].batch).toBeUndefined();
    expect(run.outputs).toEqual(['stdout', 'bench-results/k6-flash-sale.json']);
  });

  it.each(['flash-sale.js', 'compare-strategies.js'])('%s writes its summary into a folder a fresh clone has (k6 cannot create one), whose reports git ignores', (script) => {
    const summary = runStubbed(script, { STRATEGIES: 'watchdog' }).outputs.find((output) => output !== 'stdout')!;
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
    // A file of the folder's is in git, so a clone has the folder; the reports written into it are not.
    expect(git('ls-files', '--', dirname(summary)).trim()).not.toBe('');
    expect(git('check-ignore', '--no-index', '--', summary).trim()).toBe(summary);
  });

  it('sends ADMIN_TOKEN on the product resets only (an admin action), not on orders', () => {
    for (const script of ['flash-sale.js', 'compare-strategies.js']) {
      const run = runStubbed(script, { STRATEGY: 'watchdog', STRATEGIES: 'watchdog', ADMIN_TOKEN: 'lab-admin-token-0123456789' });
      const resets = run.requests.filter((request) => request.url.endsWith('/reset'));
      expect(resets.length).toBeGreaterThan(0);
      for (const reset of resets) expect(reset.headers).toMatchObject({ Authorization: 'Bearer lab-admin-token-0123456789' });
      expect(run.requests.find((request) => request.url.endsWith('/api/orders'))?.headers).not.toHaveProperty('Authorization');
    }
    expect(runStubbed('flash-sale.js', {}).requests.find((request) => request.url.endsWith('/reset'))?.headers).not.toHaveProperty('Authorization');
  });

  it('flash-sale fails the inventory check when a safe strategy oversold, and not for an unsafe one', () => {
    const safe = runStubbed('flash-sale.js', { STRATEGY: 'lua-decrement' }, OVERSOLD_INVENTORY);
    expect(safe.checks.filter((check) => check.tags.kind === 'inventory').map((check) => check.ok)).toEqual([false]);
    const pitfall = runStubbed('flash-sale.js', { SCENARIO: 'expiry-pitfall', STRATEGY: 'uuid-lua' }, { ...OVERSOLD_INVENTORY, ...LEASE_OUTLIVED });
    expect(pitfall.checks.filter((check) => check.tags.kind === 'inventory').map((check) => check.ok)).toEqual([true]);
  });

  it('flash-sale judges by the run\'s own lease and business delay (from its inventory), not by the scenario file', () => {
    // The caller reset the product itself: the file says lease 2000 ms and no delay, the run had 100 ms and 250 ms.
    const outlived = runStubbed('flash-sale.js', { STRATEGY: 'uuid-lua', PRODUCT_ID: '42', SKIP_RESET: 'true' }, { ...OVERSOLD_INVENTORY, ...LEASE_OUTLIVED });
    expect(inventoryChecks(outlived)).toEqual({ 'uuid-lua': true });
    expect(inventoryThresholds(outlived)).toEqual({ 'checks{kind:inventory}': 'holds' });
    // The other way round: the pitfall file, but the run's lease outlasted its business.
    const covered = runStubbed('flash-sale.js', { SCENARIO: 'expiry-pitfall', STRATEGY: 'uuid-lua', PRODUCT_ID: '42', SKIP_RESET: 'true' }, OVERSOLD_INVENTORY);
    expect(inventoryChecks(covered)).toEqual({ 'uuid-lua': false });
    expect(inventoryThresholds(covered)).toEqual({ 'checks{kind:inventory}': 'fails' });
  });

  it('flash-sale fails before any load when the service does not describe the strategy', () => {
    const withoutWatchdog = DESCRIPTIONS.filter((description) => description.name !== 'watchdog');
    expect(stubbedError('flash-sale.js', { STRATEGY: 'watchdog' }, withoutWatchdog)).toContain(
      'GET http://127.0.0.1:8080/api/strategies does not describe strategy watchdog',
    );
  });

  it('flash-sale with TOTAL_REQUESTS runs shared iterations, bounded by DURATION_SEC or else MAX_DURATION_SEC', () => {
    const byCount = runStubbed('flash-sale.js', { CONNECTIONS: '30', TOTAL_REQUESTS: '500' });
    // The file's durationSec (10) is not the bound: TOTAL_REQUESTS without DURATION_SEC runs up to MAX_DURATION_SEC.
    expect(byCount.options.scenarios['flash-sale']).toEqual({
      executor: 'shared-iterations',
      vus: 30,
      iterations: 500,
      maxDuration: '600s',
      tags: { strategy: 'lua-decrement' },
    });
    expect(runStubbed('flash-sale.js', { TOTAL_REQUESTS: '500', DURATION_SEC: '20' }).options.scenarios['flash-sale']).toMatchObject({
      executor: 'shared-iterations',
      vus: 200,
      iterations: 500,
      maxDuration: '20s',
    });
    expect(runStubbed('flash-sale.js', { TOTAL_REQUESTS: '5', MAX_DURATION_SEC: '120' }).options.scenarios['flash-sale']).toMatchObject({
      vus: 5,
      iterations: 5,
      maxDuration: '120s',
    });
  });

  it('flash-sale with ARRIVAL_RATE runs a constant arrival rate with CONNECTIONS pre-allocated VUs', () => {
    const run = runStubbed('flash-sale.js', { CONNECTIONS: '40', ARRIVAL_RATE: '250', DURATION_SEC: '7' });
    expect(run.options.scenarios['flash-sale']).toEqual({
      executor: 'constant-arrival-rate',
      rate: 250,
      timeUnit: '1s',
      duration: '7s',
      preAllocatedVUs: 40,
      maxVUs: 40,
      tags: { strategy: 'lua-decrement' },
    });
    // Bounded by count too: 1000 requests at 250/s have all started after 4 s.
    const counted = runStubbed('flash-sale.js', { ARRIVAL_RATE: '250', TOTAL_REQUESTS: '1000', DURATION_SEC: '30' });
    expect(counted.options.scenarios['flash-sale']).toMatchObject({ executor: 'constant-arrival-rate', rate: 250, duration: '4s', preAllocatedVUs: 200 });
  });

  it.each(['flash-sale.js', 'compare-strategies.js'])('%s with ARRIVAL_RATE and TOTAL_REQUESTS sends exactly that many orders, though k6 starts iterations for whole seconds', (script) => {
    // 500 at 300/s: k6 starts iterations for 2 s, 600 of them; the Node runner sends 500.
    const load = { STRATEGIES: 'watchdog', ARRIVAL_RATE: '300', TOTAL_REQUESTS: '500' };
    const orders = (iteration: number) => runStubbed(script, load, SAFE_INVENTORY, DESCRIPTIONS, iteration).requests.filter((request) => request.url.endsWith('/api/orders')).length;
    expect([orders(0), orders(499), orders(500), orders(599)]).toEqual([1, 1, 0, 0]);
  });

  it('flash-sale with CONNECTIONS and DURATION_SEC only runs constant VUs for that long', () => {
    const run = runStubbed('flash-sale.js', { CONNECTIONS: '15', DURATION_SEC: '2.5', QUANTITY: '3' });
    expect(run.options.scenarios['flash-sale']).toEqual({ executor: 'constant-vus', vus: 15, duration: '2.5s', tags: { strategy: 'lua-decrement' } });
    expect(run.requests.find((request) => request.url.endsWith('/api/orders'))?.body).toMatchObject({ quantity: 3 });
  });

  it('flash-sale with SKIP_RESET and RUN_TOKEN does not reset, sends x-run-token on each order, and still reads the inventory', () => {
    const runToken = 'q8Zk3v0m1Yx7P2LrT9bN4cW6sJ5hF0aD';
    const run = runStubbed('flash-sale.js', { STRATEGY: 'watchdog', PRODUCT_ID: '42', SKIP_RESET: 'true', RUN_TOKEN: runToken }, OVERSOLD_INVENTORY);

    expect(run.requests.map((request) => [request.method, request.url])).toEqual([
      ['GET', 'http://127.0.0.1:8080/api/strategies'],
      ['POST', 'http://127.0.0.1:8080/api/orders'],
      ['GET', 'http://127.0.0.1:8080/api/products/42/inventory'],
    ]);
    expect(run.requests[1]).toMatchObject({
      body: { productId: 42, strategy: 'watchdog' },
      headers: { 'Content-Type': 'application/json', 'x-run-token': runToken },
      tags: { endpoint: 'order' },
    });
    expect(run.checks.filter((check) => check.tags.kind === 'inventory').map((check) => check.ok)).toEqual([false]);
    expect(run.options.thresholds['checks{kind:inventory}']).toEqual(['rate==1']);
  });

  it.each([
    ['with', 'true', true],
    ['without', 'false', false],
  ])('flash-sale with DOUBLE_CLICK_COPIES sends each order that many times in one batch, %s one shared key', (_with, key, keyed) => {
    const run = runStubbed('flash-sale.js', { STRATEGY: 'uuid-lua', BASE_URL: 'http://a:1', PRODUCT_ID: '42', SKIP_RESET: 'true', DOUBLE_CLICK_COPIES: '3', DOUBLE_CLICK_KEY: key });
    const orders = run.requests.filter((request) => request.url.endsWith('/api/orders'));

    expect(orders).toHaveLength(3);
    expect(new Set(orders.map((order) => order.batch))).toEqual(new Set([1]));
    expect(orders.map((order) => order.body)).toEqual(Array(3).fill(orders[0].body));
    expect(orders[0].body).toMatchObject({ productId: 42, quantity: 1, strategy: 'uuid-lua' });
    if (keyed) expect(orders[0].body?.idempotencyKey).toEqual(expect.stringMatching(/^k6-uuid-lua-1-0-/));
    else expect(orders[0].body).not.toHaveProperty('idempotencyKey');
    // Every copy is counted and checked, as one order each.
    expect(run.checks.filter((check) => check.tags.kind === 'order')).toHaveLength(3);
  });

  it('flash-sale rejects a double click out of range, a stray DOUBLE_CLICK_KEY, and one on the no-op', () => {
    const base = { STRATEGY: 'uuid-lua', BASE_URL: 'http://a:1' };
    expect(stubbedError('flash-sale.js', { ...base, DOUBLE_CLICK_COPIES: '11' })).toMatch(/DOUBLE_CLICK_COPIES must be from 2 to 10/);
    expect(stubbedError('flash-sale.js', { ...base, DOUBLE_CLICK_COPIES: '1' })).toMatch(/DOUBLE_CLICK_COPIES must be from 2 to 10/);
    expect(stubbedError('flash-sale.js', { ...base, DOUBLE_CLICK_KEY: 'false' })).toMatch(/DOUBLE_CLICK_KEY needs DOUBLE_CLICK_COPIES/);
    expect(stubbedError('flash-sale.js', { ...base, DOUBLE_CLICK_COPIES: '2', DOUBLE_CLICK_KEY: 'nope' })).toMatch(/DOUBLE_CLICK_KEY must be true or false/);
    expect(stubbedError('flash-sale.js', { ...base, DOUBLE_CLICK_COPIES: '2', TARGET: 'noop' })).toMatch(/applies to TARGET=orders only/);
  });

  it('carries the scenario\'s faults in every product reset it makes, for the service to inject and check', () => {
    const { faults } = JSON.parse(readFileSync(join(K6_SCRIPTS_DIR, '..', 'scenarios', 'store-cut-lock-lost.json'), 'utf8'));
    for (const script of ['flash-sale.js', 'compare-strategies.js']) {
      const run = runStubbed(script, { SCENARIO: 'store-cut-lock-lost', STRATEGIES: 'watchdog,uuid-lua' });
      const resets = run.requests.filter((request) => request.url.endsWith('/reset'));
      expect(resets.length).toBeGreaterThan(0);
      for (const reset of resets) expect(reset.body).toMatchObject({ stock: 40, lockTtlMs: 500, faults });
    }
    expect(runStubbed('flash-sale.js', {}).requests.find((request) => request.url.endsWith('/reset'))?.body).not.toHaveProperty('faults');
  });

  it('double-clicks as the scenario\'s double-click fault says, unless DOUBLE_CLICK_COPIES overrides it', () => {
    // open() resolves against the script: a scenario outside loadtests/scenarios is reached by a relative name.
    const dir = mkdtempSync(join(tmpdir(), 'oversell-k6-scenario-'));
    const name = relative(join(K6_SCRIPTS_DIR, '..', 'scenarios'), join(dir, 'clicks'));
    const scenario = { name, description: 'd', strategy: 'uuid-lua', initialStock: 10, load: { connections: 1, durationSec: 1 }, faults: [{ kind: 'double-click', copies: 3, idempotencyKey: false }] };
    writeFileSync(join(dir, 'clicks.json'), JSON.stringify(scenario));
    const orders = (env: Record<string, string>) => runStubbed('flash-sale.js', { SCENARIO: name, PRODUCT_ID: '42', ...env }).requests.filter((request) => request.url.endsWith('/api/orders'));

    const clicked = orders({});
    expect(clicked).toHaveLength(3);
    expect(new Set(clicked.map((order) => order.batch)).size).toBe(1);
    for (const order of clicked) expect(order.body).not.toHaveProperty('idempotencyKey');
    const overridden = orders({ DOUBLE_CLICK_COPIES: '2' });
    expect(overridden).toHaveLength(2);
    expect(overridden[0].body?.idempotencyKey).toEqual(overridden[1].body?.idempotencyKey);
    expect(orders({ TARGET: 'noop' })).toHaveLength(0);
    writeFileSync(join(dir, 'clicks.json'), JSON.stringify({ ...scenario, faults: { kind: 'double-click' } }));
    expect(stubbedError('flash-sale.js', { SCENARIO: name })).toContain('clicks.json: faults must be a list');
  });

  it('compare-strategies double-clicks the same way', () => {
    const run = runStubbed('compare-strategies.js', { STRATEGIES: 'uuid-lua', BASE_URL: 'http://a:1', PRODUCT_ID: '7', DOUBLE_CLICK_COPIES: '2' });
    const orders = run.requests.filter((request) => request.url.endsWith('/api/orders'));
    expect(orders).toHaveLength(2);
    expect(orders[0].batch).toBe(orders[1].batch);
    expect(orders[0].body?.idempotencyKey).toEqual(orders[1].body?.idempotencyKey);
    expect(orders[0].body?.idempotencyKey).toEqual(expect.any(String));
  });

  it('flash-sale sends no x-run-token without RUN_TOKEN, and never a bare run id', () => {
    const run = runStubbed('flash-sale.js', { RUN_ID: '0b7a3f52-9c1e-4d7e-8f00-1a2b3c4d5e6f' });
    expect(run.requests.find((request) => request.url.endsWith('/api/orders'))?.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('flash-sale with TARGET=noop posts to /api/noop, expects 200, and reads no inventory', () => {
    const run = runStubbed('flash-sale.js', { TARGET: 'noop', PRODUCT_ID: '7', SKIP_RESET: 'true', RUN_TOKEN: 'token-1', BASE_URL: 'http://a:1,http://b:2' });

    expect(run.requests).toHaveLength(1);
    expect(run.requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://b:2/api/noop',
      body: { productId: 7, quantity: 1, strategy: 'lua-decrement' },
      headers: { 'x-run-token': 'token-1' },
      tags: { endpoint: 'order' },
    });
    expect(run.checks).toEqual([{ name: 'noop is 200', ok: true, tags: { kind: 'order' } }]);
    expect(run.options.thresholds).not.toHaveProperty(['checks{kind:inventory}']);
    expect(run.options.thresholds['http_req_duration{endpoint:order}']).toEqual(['p(99)<2000']);
  });

  it('flash-sale rejects a malformed override, an unknown target, and SKIP_RESET on a random product', () => {
    expect(stubbedError('flash-sale.js', { CONNECTIONS: 'ten' })).toContain('CONNECTIONS must be a positive integer (got "ten")');
    expect(stubbedError('flash-sale.js', { TOTAL_REQUESTS: '1.5' })).toContain('TOTAL_REQUESTS must be a positive integer');
    expect(stubbedError('flash-sale.js', { DURATION_SEC: '0' })).toContain('DURATION_SEC must be a positive number');
    expect(stubbedError('flash-sale.js', { TARGET: 'refunds' })).toContain('TARGET must be one of orders, noop (got "refunds")');
    expect(stubbedError('flash-sale.js', { SKIP_RESET: 'true' })).toContain('SKIP_RESET=true needs PRODUCT_ID');
  });

  it.each([
    ['flash-sale.js', 'http_req_duration{endpoint:order}'],
    ['compare-strategies.js', 'http_req_duration{endpoint:order,strategy:watchdog}'],
  ])('%s holds order latency to the scenario\'s own bound, to none under expiry-pitfall, and to P99_MS when given', (script, metric) => {
    const latency = (env: Record<string, string>) => runStubbed(script, { STRATEGY: 'watchdog', STRATEGIES: 'watchdog', ...env }).options.thresholds[metric];
    expect(latency({ SCENARIO: 'compare' })).toEqual(['p(99)<2000']);
    // 250 ms of business behind one lock: a lock strategy's orders queue for seconds by design.
    expect(latency({ SCENARIO: 'expiry-pitfall' })).toBeUndefined();
    expect(latency({ SCENARIO: 'expiry-pitfall', P99_MS: '15000' })).toEqual(['p(99)<15000']);
    expect(latency({ SCENARIO: 'compare', P99_MS: '500' })).toEqual(['p(99)<500']);
    expect(stubbedError(script, { STRATEGY: 'watchdog', STRATEGIES: 'watchdog', P99_MS: '2s' })).toContain('P99_MS must be a positive number (got "2s")');
  });

  it('compare-strategies under expiry-pitfall: each oversell threshold holds where the business delay outlasts a fixed lease (segmented too) or nothing keeps orders apart, and fails for the rest', () => {
    const run = runStubbed('compare-strategies.js', { SCENARIO: 'expiry-pitfall', STRATEGIES: DESCRIBED }, { ...OVERSOLD_INVENTORY, ...LEASE_OUTLIVED });
    const mayOversell = { 'no-lock': 'holds', 'naive-setnx': 'holds', 'uuid-lua': 'holds', segmented: 'holds', 'db-lock-table-ttl': 'holds' } as const;
    const mustNot = { 'setnx-no-ttl': 'fails', watchdog: 'fails', 'lua-decrement': 'fails', 'db-optimistic': 'fails' } as const;
    expect(thresholdByStrategy(run)).toEqual({ ...mayOversell, ...mustNot });
    expect(inventoryChecks(run)).toMatchObject({ segmented: true, watchdog: false });

    // Had every strategy sold exactly its stock, every threshold would hold.
    const exact = runStubbed('compare-strategies.js', { SCENARIO: 'expiry-pitfall', STRATEGIES: DESCRIBED }, { ...SAFE_INVENTORY, ...LEASE_OUTLIVED });
    expect(new Set(Object.values(inventoryThresholds(exact)))).toEqual(new Set(['holds']));
  });

  it('compare-strategies under compare: every lease outlasts the business, so only the strategy that keeps nothing apart may oversell', () => {
    const run = runStubbed('compare-strategies.js', { STRATEGIES: DESCRIBED }, OVERSOLD_INVENTORY);
    expect(thresholdByStrategy(run)).toEqual(
      Object.fromEntries(DESCRIPTIONS.map(({ name }) => [name, name === 'no-lock' ? 'holds' : 'fails'])),
    );
    const exact = runStubbed('compare-strategies.js', { STRATEGIES: DESCRIBED }, SAFE_INVENTORY);
    expect(new Set(Object.values(inventoryThresholds(exact)))).toEqual(new Set(['holds']));
  });

  it('EXPECT_SAFE overrides what the descriptions say', () => {
    const expected = runStubbed('compare-strategies.js', { SCENARIO: 'expiry-pitfall', STRATEGIES: 'segmented,no-lock', EXPECT_SAFE: 'true' }, { ...OVERSOLD_INVENTORY, ...LEASE_OUTLIVED });
    expect(thresholdByStrategy(expected)).toEqual({ segmented: 'fails', 'no-lock': 'fails' });
    const excused = runStubbed('compare-strategies.js', { STRATEGIES: 'watchdog', EXPECT_SAFE: 'false' }, OVERSOLD_INVENTORY);
    expect(thresholdByStrategy(excused)).toEqual({ watchdog: 'holds' });
  });

  it('compare-strategies takes the same load overrides and RUN_TOKEN', () => {
    const run = runStubbed('compare-strategies.js', { STRATEGIES: 'watchdog,uuid-lua', CONNECTIONS: '12', DURATION_SEC: '3', RUN_TOKEN: 'r' });

    // 3 s of load, 10 s for the service's lock wait (the orders still in flight), 2 s of gap.
    expect(Object.values(run.options.scenarios).map((scenario) => [scenario.executor, scenario.vus, scenario.duration, scenario.startTime])).toEqual([
      ['constant-vus', 12, '3s', '0s'],
      ['constant-vus', 12, '3s', '15s'],
    ]);
    expect(run.requests.find((request) => request.url.endsWith('/api/orders'))?.headers).toMatchObject({ 'x-run-token': 'r' });
  });

  it('compare-strategies runs one staggered scenario per strategy, each on its own product, with per-strategy thresholds', () => {
    const run = runStubbed('compare-strategies.js', { STRATEGIES: 'naive-setnx,watchdog,db-optimistic', PRODUCT_ID: '10' });

    expect(Object.keys(run.options.scenarios)).toEqual(['naive-setnx', 'watchdog', 'db-optimistic']);
    // compare runs 8 s; its orders in flight then may take the service's lock wait (10 s) to finish, and only then,
    // after the 2 s gap, does the next strategy start: the service never serves two strategies' loads at once.
    expect(Object.values(run.options.scenarios).map((scenario) => [scenario.startTime, scenario.gracefulStop])).toEqual([
      ['0s', '10s'],
      ['20s', '10s'],
      ['40s', '10s'],
    ]);
    expect(run.options.scenarios.watchdog).toMatchObject({ exec: 'order', vus: 500, env: { STRATEGY: 'watchdog' }, tags: { strategy: 'watchdog' } });
    expect(run.options.thresholds['http_req_duration{endpoint:order,strategy:db-optimistic}']).toEqual(['p(99)<2000']);
    const resets = run.requests.filter((request) => request.url.endsWith('/reset'));
    expect(resets.map((request) => [request.url, request.body?.strategy])).toEqual([
      ['http://127.0.0.1:8080/api/products/10/reset', 'naive-setnx'],
      ['http://127.0.0.1:8080/api/products/11/reset', 'watchdog'],
      ['http://127.0.0.1:8080/api/products/12/reset', 'db-optimistic'],
    ]);
    expect(run.checks.filter((check) => check.tags.kind === 'inventory').map((check) => check.tags.strategy)).toEqual([
      'naive-setnx',
      'watchdog',
      'db-optimistic',
    ]);
  });
});

describe('k6 compare-strategies, one strategy after another', () => {
  it("waits out the service's lock wait and the scenario's business delay before the next strategy (LOCK_WAIT_MS)", () => {
    const run = runStubbed('compare-strategies.js', { SCENARIO: 'expiry-pitfall', STRATEGIES: 'uuid-lua,watchdog', LOCK_WAIT_MS: '3000', GAP_SEC: '1' });
    // expiry-pitfall: 6 s of load, a 250 ms business delay: 3.25 s, rounded up to 4 s.
    expect(Object.values(run.options.scenarios).map((scenario) => [scenario.startTime, scenario.gracefulStop])).toEqual([
      ['0s', '4s'],
      ['11s', '4s'],
    ]);
  });
});

describe('findK6', () => {
  it('uses K6_BIN when it is an executable file, and never falls back from a wrong K6_BIN', () => {
    const { bin } = fakeK6(0);
    expect(findK6({ K6_BIN: bin, PATH: '' })).toBe(bin);
    expect(findK6({ K6_BIN: join(tmpdir(), 'no-such-k6'), PATH: join(bin, '..') })).toBeNull();
  });

  it('searches the PATH, and finds nothing on an empty one', () => {
    const { bin } = fakeK6(0);
    expect(findK6({ PATH: ['/nonexistent', join(bin, '..')].join(':') })).toBe(bin);
    expect(findK6({ PATH: '' })).toBeNull();
  });
});

describe('parseK6Summary', () => {
  it('maps the scripts’ counters and the order-only latency onto a LoadSummary', () => {
    expect(parseK6Summary(K6_DATA)).toEqual({
      driver: 'k6',
      requests: 4000,
      sent: 4003,
      durationSec: 8,
      statusCounts: { '201': 500, '409': 3400, '503': 100 },
      non2xx: 3500,
      errors: 3,
      timeouts: 2,
      throughput: 500,
      latency: { count: 4000, mean: 12.5, p50: 10, p90: 20, p99: 45, max: 80 },
    });
  });
});

describe('runK6', () => {
  it('passes env as -e flags, runs the script from loadtests/k6, and parses the summary even when thresholds failed', async () => {
    const { bin, argsFile } = fakeK6(99);
    const summary = await runK6('flash-sale.js', { STRATEGY: 'watchdog', BASE_URL: 'http://a,http://b' }, { k6Bin: bin });

    expect(summary.requests).toBe(4000);
    const args = JSON.parse(readFileSync(argsFile, 'utf8')) as string[];
    expect(args[0]).toBe('run');
    expect(args).toEqual(expect.arrayContaining(['-e', 'STRATEGY=watchdog', '-e', 'BASE_URL=http://a,http://b']));
    expect(args.at(-1)).toBe(join(K6_SCRIPTS_DIR, 'flash-sale.js'));
  });

  it('rejects when k6 cannot be found', async () => {
    const previous = process.env.K6_BIN;
    process.env.K6_BIN = join(tmpdir(), 'no-such-k6');
    try {
      await expect(runK6('flash-sale.js')).rejects.toThrow(/k6 not found/);
    } finally {
      if (previous === undefined) delete process.env.K6_BIN;
      else process.env.K6_BIN = previous;
    }
  });
});

describe('runK6Load', () => {
  const FULL: LoadOptions = {
    urls: ['http://127.0.0.1:3001', 'http://127.0.0.1:3002'],
    target: 'orders',
    productId: 4242,
    runToken: 'q8Zk3v0m1Yx7P2LrT9bN4cW6sJ5hF0aD',
    strategy: 'uuid-lua',
    profile: { connections: 50, durationSec: 12.5, totalRequests: 900, arrivalRate: 300, quantity: 2 },
  };

  async function recordedRun(options: LoadOptions): Promise<{ args: string[]; env: Record<string, string> }> {
    const { bin, argsFile } = fakeK6(0);
    const summary = await runK6Load(options, { k6Bin: bin });
    expect(summary).toEqual(parseK6Summary(K6_DATA));
    const args = JSON.parse(readFileSync(argsFile, 'utf8')) as string[];
    const env = envOfArgs(args);
    expect(env.SUMMARY_PATH).toEqual(expect.any(String));
    delete env.SUMMARY_PATH;
    return { args, env };
  }

  it('maps every LoadOptions field onto flash-sale.js’s environment, with SKIP_RESET=true', async () => {
    const { args, env } = await recordedRun(FULL);

    expect(args[0]).toBe('run');
    expect(args.at(-1)).toBe(join(K6_SCRIPTS_DIR, 'flash-sale.js'));
    expect(env).toEqual({
      BASE_URL: 'http://127.0.0.1:3001,http://127.0.0.1:3002',
      PRODUCT_ID: '4242',
      STRATEGY: 'uuid-lua',
      TARGET: 'orders',
      CONNECTIONS: '50',
      DURATION_SEC: '12.5',
      TOTAL_REQUESTS: '900',
      ARRIVAL_RATE: '300',
      QUANTITY: '2',
      RUN_TOKEN: 'q8Zk3v0m1Yx7P2LrT9bN4cW6sJ5hF0aD',
      SKIP_RESET: 'true',
    });
  });

  it('maps a double click onto DOUBLE_CLICK_COPIES and DOUBLE_CLICK_KEY, and flash-sale.js sends the copies in one batch', async () => {
    const { env } = await recordedRun({ ...FULL, doubleClick: { copies: 4, idempotencyKey: false } });
    expect(env).toMatchObject({ DOUBLE_CLICK_COPIES: '4', DOUBLE_CLICK_KEY: 'false' });
    const orders = runStubbed('flash-sale.js', env).requests.filter((request) => request.url.endsWith('/api/orders'));
    expect(orders).toHaveLength(4);
    expect(orders.every((order) => order.batch === 1 && order.body?.idempotencyKey === undefined)).toBe(true);
  });

  it('leaves out what the options leave out', async () => {
    const { env } = await recordedRun({ urls: ['http://h:8080'], target: 'noop', productId: 1, strategy: 'no-lock', profile: { connections: 10, durationSec: 5 } });

    expect(env).toEqual({ BASE_URL: 'http://h:8080', PRODUCT_ID: '1', STRATEGY: 'no-lock', TARGET: 'noop', CONNECTIONS: '10', DURATION_SEC: '5', SKIP_RESET: 'true' });
  });

  it('hands flash-sale.js an environment it turns into the same run, without a reset', async () => {
    const { env } = await recordedRun({ ...FULL, profile: { connections: 20, totalRequests: 300, quantity: 2 } });
    const run = runStubbed('flash-sale.js', env);

    expect(run.options.scenarios['flash-sale']).toMatchObject({ executor: 'shared-iterations', vus: 20, iterations: 300, maxDuration: '600s' });
    expect(run.requests.some((request) => request.url.endsWith('/reset'))).toBe(false);
    expect(run.requests[1]).toMatchObject({
      url: 'http://127.0.0.1:3002/api/orders',
      body: { productId: 4242, quantity: 2, strategy: 'uuid-lua' },
      headers: { 'x-run-token': FULL.runToken },
    });
    expect(run.requests[2]).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:3001/api/products/4242/inventory' });
  });

  it('rejects bad options before starting k6', async () => {
    const { bin, argsFile } = fakeK6(0);
    await expect(runK6Load({ ...FULL, profile: { connections: 0, durationSec: 5 } }, { k6Bin: bin })).rejects.toThrow(InvalidFieldError);
    await expect(runK6Load({ ...FULL, profile: { connections: 5 } }, { k6Bin: bin })).rejects.toThrow(/profile\.durationSec/);
    await expect(runK6Load({ ...FULL, urls: [] }, { k6Bin: bin })).rejects.toThrow(/urls/);
    await expect(runK6Load({ ...FULL, doubleClick: { copies: 1, idempotencyKey: true } }, { k6Bin: bin })).rejects.toThrow(/doubleClick\.copies/);
    await expect(runK6Load({ ...FULL, target: 'noop', doubleClick: { copies: 2, idempotencyKey: true } }, { k6Bin: bin })).rejects.toThrow(/doubleClick/);
    expect(existsSync(argsFile)).toBe(false);
  });
});
