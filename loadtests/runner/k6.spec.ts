import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STRATEGY_NAMES } from '@oversell/contracts';
import { findK6, K6_SCRIPTS_DIR, parseK6Summary, runK6, type K6SummaryData } from './k6';

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
      ['compare-strategies.js', 'flash-sale.js', 'lib/common.js'].sort(),
    );
  });

  it.each(files)('%s parses (node --check)', (file) => {
    expect(() => execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' })).not.toThrow();
  });

  it('list the same strategies as the contracts', () => {
    const source = readFileSync(join(K6_SCRIPTS_DIR, 'lib', 'common.js'), 'utf8');
    const listed = /export const STRATEGY_NAMES = (\[[^\]]*\])/.exec(source)?.[1];
    expect(JSON.parse(listed!.replace(/'/g, '"'))).toEqual([...STRATEGY_NAMES]);
  });
});

interface StubbedRun {
  options: { scenarios: Record<string, Record<string, unknown>>; thresholds: Record<string, string[]> };
  outputs: string[];
  requests: { method: string; url: string; body?: Record<string, unknown>; tags: Record<string, string> }[];
  checks: { name: string; ok: boolean; tags: Record<string, string> }[];
}

const SAFE_INVENTORY = { initialStock: 100, sold: 100, remaining: 0, orders: 100, oversold: 0, storesAgree: true };
const OVERSOLD_INVENTORY = { ...SAFE_INVENTORY, sold: 103, orders: 103, oversold: 3, storesAgree: false };

/** Runs a script's init, setup, one iteration, teardown and handleSummary with k6's modules stubbed. */
function runStubbed(script: string, env: Record<string, string>, inventory = SAFE_INVENTORY): StubbedRun {
  const stdout = execFileSync(process.execPath, [join(__dirname, 'test-support', 'k6-stub', 'run-script.mjs'), join(K6_SCRIPTS_DIR, script)], {
    env: { ...process.env, K6_ENV: JSON.stringify(env), K6_INVENTORY: JSON.stringify(inventory) },
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as StubbedRun;
}

describe('k6 scripts, run with k6 stubbed', () => {
  it('flash-sale resets the product, posts a keyed order round-robin, and builds its options from the scenario', () => {
    const run = runStubbed('flash-sale.js', { STRATEGY: 'watchdog', BASE_URL: 'http://a:1/,http://b:2', PRODUCT_ID: '42' });

    expect(run.options.scenarios['flash-sale']).toMatchObject({ executor: 'constant-vus', vus: 200, duration: '10s' });
    expect(run.options.thresholds['http_req_duration{endpoint:order}']).toEqual(['p(99)<2000']);
    expect(run.requests[0]).toMatchObject({
      url: 'http://a:1/api/products/42/reset',
      body: { stock: 1000, strategy: 'watchdog', lockTtlMs: 2000, businessDelayMs: 0 },
    });
    // __VU 1 + __ITER 0 picks the second URL.
    expect(run.requests[1]).toMatchObject({ url: 'http://b:2/api/orders', body: { productId: 42, quantity: 1, strategy: 'watchdog' } });
    expect(run.requests[1].body?.idempotencyKey).toEqual(expect.stringMatching(/^k6-watchdog-1-0-/));
    expect(run.checks).toContainEqual({ name: 'order is 201 or an expected 409/503', ok: true, tags: { kind: 'order' } });
    expect(run.outputs).toEqual(['stdout', 'bench-results/k6-flash-sale.json']);
  });

  it('flash-sale fails the inventory check when a safe strategy oversold, and not for an unsafe one', () => {
    const safe = runStubbed('flash-sale.js', { STRATEGY: 'lua-decrement' }, OVERSOLD_INVENTORY);
    expect(safe.checks.filter((check) => check.tags.kind === 'inventory').map((check) => check.ok)).toEqual([false]);
    const pitfall = runStubbed('flash-sale.js', { SCENARIO: 'expiry-pitfall', STRATEGY: 'uuid-lua' }, OVERSOLD_INVENTORY);
    expect(pitfall.checks.filter((check) => check.tags.kind === 'inventory').map((check) => check.ok)).toEqual([true]);
  });

  it('compare-strategies runs one staggered scenario per strategy, each on its own product, with per-strategy thresholds', () => {
    const run = runStubbed('compare-strategies.js', { STRATEGIES: 'naive-setnx,watchdog,db-optimistic', PRODUCT_ID: '10' });

    expect(Object.keys(run.options.scenarios)).toEqual(['naive-setnx', 'watchdog', 'db-optimistic']);
    // compare runs 8 s; the default gap is 2 s.
    expect(Object.values(run.options.scenarios).map((scenario) => scenario.startTime)).toEqual(['0s', '10s', '20s']);
    expect(run.options.scenarios.watchdog).toMatchObject({ exec: 'order', vus: 100, env: { STRATEGY: 'watchdog' }, tags: { strategy: 'watchdog' } });
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
