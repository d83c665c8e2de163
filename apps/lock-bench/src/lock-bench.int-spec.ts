import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLockBench } from './lock-bench';
import type { LockBenchReport } from './lock-bench-report';
import { LOCK_NAMES } from './locks-under-test';

const LOCKS = LOCK_NAMES.filter((lock) => lock !== 'no-lock');

/**
 * The short lock bench CI runs: every lock (ours and the npm peers) and the no-lock control for about
 * 1 s through 3 processes × 20 workers on the real Redis. Mutual exclusion is asserted: each lock here
 * fails only when a lease runs out under its holder or a holder dies, and a 2 s lease outlives a
 * section of two Redis commands by three orders of magnitude, so not one increment may be lost.
 * Timings are printed, never asserted.
 */
let report: LockBenchReport;
let files: string[];

beforeAll(async () => {
  ({ report, files } = await runLockBench(
    { locks: LOCK_NAMES, processes: 3, workers: 20, seconds: 1, passes: 1, autoPipelining: false, outDir: mkdtempSync(join(tmpdir(), 'oversell-lock-bench-')), command: 'lock-bench.int-spec (1 s, 3 processes × 20 workers)' },
    (line) => process.stdout.write(`${line}\n`),
  ));
});

it('measures every lock, in table order', () => {
  expect(report.rows.map((r) => r.lock)).toEqual(LOCK_NAMES);
});

it('no-lock, the control, loses increments: the check below can fail', () => {
  const row = report.rows.find((r) => r.lock === 'no-lock')!;
  expect(row.lostIncrements).toBeGreaterThan(0);
});

it.each(LOCKS)('%s: sections complete, the counter equals them (0 lost increments), no errors', (lock) => {
  const row = report.rows.find((r) => r.lock === lock)!;
  expect(row.sections).toBeGreaterThan(0);
  expect(row.bound.sectionsPerSec).toBeGreaterThan(0);
  expect(row).toMatchObject({ counter: row.sections, lostIncrements: 0, errors: 0 });
});

it('writes the JSON report and the markdown table', () => {
  expect(JSON.parse(readFileSync(files[0], 'utf8'))).toEqual(report);
  const markdown = readFileSync(files[1], 'utf8');
  for (const lock of LOCK_NAMES) expect(markdown).toContain(`| ${lock} |`);
});
