import type { BenchReport, OrderWrite, StrategyName } from '@oversell/contracts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from './bench';
import { freePortRange, testLabEnv } from '../testing/test-lab';

/**
 * The short bench CI runs: one strategy of each kind for a few seconds through 2 instances. Correctness is
 * asserted; timings are only reported (printed), never asserted. `npm run bench` runs every strategy by
 * default (bench-scaling.spec); each strategy's correctness under many processes is the stock library's
 * correctness.int-spec: here the bench's own machinery is under test, which one of each kind exercises.
 */
const STRATEGIES: StrategyName[] = [
  'no-lock', // oversells: the bench must show it
  'uuid-lua', // Redis locks: round-trip bound and efficiency
  'watchdog',
  'zookeeper', // a lock on a server of its own (lock services started by the lab)
  'lua-decrement', // no lock: no bound
  'db-conditional', // the stock in MySQL
];
let report: BenchReport;
let files: string[];

beforeAll(async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'oversell-bench-'));
  ({ report, files } = await runBench(
    {
      scenario: 'smoke',
      strategies: STRATEGIES,
      // Each strategy twice: a whole queued run through the executor, its drain and reconciliation, too.
      orderWrites: ['sync', 'queued'],
      instances: 2,
      durationSec: 3,
      // Fewer units than smoke's 50, so every lock here sells out within the 3 s on a loaded machine too.
      stock: 20,
      outDir,
      command: 'bench.int-spec (smoke, 3 s, 2 instances)',
      env: testLabEnv(),
      basePort: await freePortRange(2),
    },
    (line) => process.stdout.write(`${line}\n`),
  ));
  // A hang guard, not a timing: the strategies' runs, then each lock strategy's uncontended run.
}, 900_000);

const row = (strategy: string, orderWrite: OrderWrite = 'sync') => report.rows.find((r) => r.strategy === strategy && r.orderWrite === orderWrite)!;

it('measures the no-op ceiling first and every strategy after it', () => {
  expect(report.ceiling).toMatchObject({ strategy: 'noop', status: 'completed' });
  expect(report.ceiling!.throughput).toBeGreaterThan(0);
  expect(report.rows.map((r) => [r.strategy, r.orderWrite])).toEqual((['sync', 'queued'] as const).flatMap((w) => STRATEGIES.map((s) => [s, w])));
  expect(report.rows.every((r) => r.status === 'completed')).toBe(true);
});

it('measures a bare Fastify no-op in the same bench, and the service no-op as a share of it', () => {
  const bare = report.bareFastify!;
  expect(bare.requests).toBeGreaterThan(0);
  // The answers over the time from the first arrival to the last answer, which lies inside the load tool's
  // run (durationSec, rounded to 10 ms): at least the answers over the whole run.
  expect(bare.throughput).toBeGreaterThanOrEqual(Math.floor(bare.requests / (bare.durationSec + 0.005)));
  // A ratio, never a timing limit: it only has to be the two throughputs measured here.
  expect(bare.ceilingShare).toBeCloseTo(report.ceiling!.throughput / bare.throughput, 2);
});

it('measures the service no-op through the gateway too, counted by the gateway, as a share of bare Fastify and of the ceiling', () => {
  const viaGateway = report.throughGateway!;
  expect(viaGateway.requests).toBeGreaterThan(0);
  expect(viaGateway.throughput).toBeGreaterThanOrEqual(Math.floor(viaGateway.requests / (viaGateway.durationSec + 0.005)));
  expect(viaGateway.bareShare).toBeCloseTo(viaGateway.throughput / report.bareFastify!.throughput, 2);
  expect(viaGateway.ceilingShare).toBeCloseTo(viaGateway.throughput / report.ceiling!.throughput, 2);
});

it('gives the lock strategies an uncontended round-trip bound and its efficiency, and the others none', () => {
  const bounded = report.rows.filter((r) => r.roundTrip);
  // Which strategies hold a lock is their descriptions' to say (lockStrategies, unit-tested): here some do and some do not.
  expect(bounded.length).toBeGreaterThan(0);
  expect(bounded.length).toBeLessThan(STRATEGIES.length);
  // The bound is measured the first way of writing (sync here), and only those rows get it.
  expect(bounded.every((r) => r.orderWrite === 'sync')).toBe(true);
  for (const r of bounded) {
    const bound = r.roundTrip!;
    // Every section took time, and the bound is what 1 ÷ it says.
    expect(bound.sections).toBeGreaterThan(0);
    expect(bound.holdMs).toBeGreaterThan(0);
    // holdMs is kept to 0.001 ms and the bound taken from the unrounded median: at a bound above 1000/s
    // that rounding alone moves 1000 ÷ holdMs by more than 0.5.
    expect(bound.boundPerSec).toBeGreaterThanOrEqual(1000 / (bound.holdMs + 0.0005) - 0.05);
    expect(bound.boundPerSec).toBeLessThanOrEqual(1000 / (bound.holdMs - 0.0005) + 0.05);
    expect(bound.efficiency).toBeCloseTo(r.contendedPhase!.unitsPerSec / bound.boundPerSec, 2);
  }
});

it('shows no-lock overselling', () => {
  expect(row('no-lock').oversold).toBeGreaterThan(0);
});

it.each((['sync', 'queued'] as const).flatMap((w) => STRATEGIES.filter((s) => s !== 'no-lock').map((s) => [s, w] as const)))('%s, orders written %s, sells exactly the stock, 0 oversold, 0 lost', (strategy, orderWrite) => {
  // smoke.json keeps the business time far inside the lock TTL, where every lock strategy is correct.
  // Queued: lost 0 means every order taken was written once the reconciliation's wait for the drain ended.
  expect(row(strategy, orderWrite)).toMatchObject({ sold: report.settings.initialStock, oversold: 0, lost: 0, exclusionViolations: 0 });
});

it('writes JSON and markdown in the documented shape', () => {
  const json = JSON.parse(readFileSync(files[0], 'utf8')) as BenchReport;
  expect(Object.keys(json).sort()).toEqual(['bareFastify', 'ceiling', 'command', 'finishedAt', 'instances', 'machine', 'rows', 'scenario', 'settings', 'startedAt', 'throughGateway']);
  expect(Object.keys(json.rows[0]).sort()).toEqual(
    ['attempts', 'conflictRetries', 'conflicts', 'contendedPhase', 'cpu', 'errors', 'exclusionViolations', 'failure', 'lockTimeouts', 'lost', 'orderWrite', 'oversold', 'p50', 'p99', 'peakRssMb', 'ratioToCeiling', 'roundTrip', 'runId', 'sold', 'soldTwice', 'status', 'strategy', 'throughput'].sort(),
  );
  expect(json.rows.every((r) => typeof r.ratioToCeiling === 'number' && r.peakRssMb.length === 2)).toBe(true);
  // Every process of the lab on this machine was charged its CPU: the forked load tool, the instances, Redis, MariaDB.
  for (const r of json.rows) expect(Object.keys(r.cpu!.perRequestUs).sort()).toEqual(['instance', 'load-tool', 'mysql', 'redis']);
  expect(json.rows.every((r) => r.cpu!.perRequestUs.instance! > 0 && r.cpu!.perRequestUs['load-tool']! > 0)).toBe(true);
  // Every strategy sold something, so each has a contended phase with the units it sold in it.
  expect(json.rows.every((r) => (r.contendedPhase?.units ?? 0) > 0)).toBe(true);
  const markdown = readFileSync(files[1], 'utf8');
  expect(markdown).toMatch(/\| strategy \| sold \| sold twice \| oversold \| lost \|/);
  expect(markdown).toMatch(/\| sell-out s \| units\/s in phase \| phase p50 ms \| phase p99 ms \| uncontended section ms \| round-trip bound\/s \| of bound \|/);
  expect(markdown).toMatch(/Stack's own cost: a bare Fastify no-op .* answered \d+ req\/s; the service's no-op at the instances' own ports \(the ceiling\) is \d+ % of it/);
  expect(markdown).toMatch(/Through the gateway, .* the service's no-op answered \d+ req\/s: \d+ % of it, \d+ % of the ceiling \(target ≥ 50 %: (not )?met\)\./);
  for (const strategy of STRATEGIES) expect(markdown).toContain(`| ${strategy} |`);
  for (const strategy of STRATEGIES) expect(markdown).toContain(`| ${strategy} (queued) |`);
});
