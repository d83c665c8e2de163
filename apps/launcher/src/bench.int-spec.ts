import { STRATEGY_NAMES, type BenchReport } from '@oversell/contracts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from './bench';
import { freePortRange, testLabEnv } from './testing/test-lab';

/**
 * The short bench CI runs: every strategy for a few seconds through 2 instances. Correctness is
 * asserted; timings are only reported (printed), never asserted.
 */
let report: BenchReport;
let files: string[];

beforeAll(async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'oversell-bench-'));
  ({ report, files } = await runBench(
    {
      scenario: 'smoke',
      strategies: [...STRATEGY_NAMES],
      instances: 2,
      durationSec: 3,
      // Fewer units than smoke's 50, so the slowest lock sells out within the 3 s too: etcd's grant is
      // several Raft writes, each an fsync (10–25 grants/s measured on a loaded 2-core machine).
      stock: 20,
      outDir,
      command: 'bench.int-spec (smoke, 3 s, 2 instances)',
      env: testLabEnv(),
      basePort: await freePortRange(2),
    },
    (line) => process.stdout.write(`${line}\n`),
  ));
});

const row = (strategy: string) => report.rows.find((r) => r.strategy === strategy)!;

it('measures the no-op ceiling first and every strategy after it', () => {
  expect(report.ceiling).toMatchObject({ strategy: 'noop', status: 'completed' });
  expect(report.ceiling!.throughput).toBeGreaterThan(0);
  expect(report.rows.map((r) => r.strategy)).toEqual([...STRATEGY_NAMES]);
  expect(report.rows.every((r) => r.status === 'completed')).toBe(true);
});

it('shows no-lock overselling', () => {
  expect(row('no-lock').oversold).toBeGreaterThan(0);
});

it.each(STRATEGY_NAMES.filter((s) => s !== 'no-lock'))('%s sells exactly the stock, 0 oversold, 0 lost', (strategy) => {
  // smoke.json keeps the business time far inside the lock TTL, where every lock strategy is correct.
  expect(row(strategy)).toMatchObject({ sold: report.settings.initialStock, oversold: 0, lost: 0, exclusionViolations: 0 });
});

it('writes JSON and markdown in the documented shape', () => {
  const json = JSON.parse(readFileSync(files[0], 'utf8')) as BenchReport;
  expect(Object.keys(json).sort()).toEqual(['ceiling', 'command', 'finishedAt', 'instances', 'machine', 'rows', 'scenario', 'settings', 'startedAt']);
  expect(Object.keys(json.rows[0]).sort()).toEqual(
    ['attempts', 'conflictRetries', 'conflicts', 'contendedPhase', 'exclusionViolations', 'failure', 'lockTimeouts', 'lost', 'oversold', 'p50', 'p99', 'peakRssMb', 'ratioToCeiling', 'runId', 'sold', 'status', 'strategy', 'throughput'].sort(),
  );
  expect(json.rows.every((r) => typeof r.ratioToCeiling === 'number' && r.peakRssMb.length === 2)).toBe(true);
  // Every strategy sold something, so each has a contended phase with the units it sold in it.
  expect(json.rows.every((r) => (r.contendedPhase?.units ?? 0) > 0)).toBe(true);
  const markdown = readFileSync(files[1], 'utf8');
  expect(markdown).toMatch(/\| strategy \| sold \| oversold \| lost \|/);
  expect(markdown).toMatch(/\| sell-out s \| units\/s in phase \| phase p99 ms \|/);
  for (const strategy of STRATEGY_NAMES) expect(markdown).toContain(`| ${strategy} |`);
});
