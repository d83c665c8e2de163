import { PITFALL_PRESETS, findPitfallPreset, type PitfallPreset } from '@oversell/contracts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPitfalls } from './pitfalls';
import type { PitfallRunRecord, PitfallsReport } from '../reports/pitfalls-report';
import { freePortRange, testLabEnv } from '../testing/test-lab';

/**
 * What CI asserts of the pitfall lab: `npm run pitfalls` (every preset, --repeat 1) through the real labs
 * it starts (2 instances, store-cut proxy, Redis, MySQL, the lock services; the failover preset on a lab
 * of its own whose locks are on a Sentinel group), by the function the CLI
 * calls: each preset's own load and fault, and for each one the broken side shows its pitfall and the
 * fix stays clean, by the verdict the dashboard and the CLI count with (pitfallVerdict).
 */
let report: PitfallsReport;
let files: string[];

beforeAll(async () => {
  ({ report, files } = await runPitfalls(
    {
      presets: [...PITFALL_PRESETS],
      repeat: 1,
      instances: 2,
      strict: false,
      env: testLabEnv(),
      basePort: await freePortRange(2),
      outDir: mkdtempSync(join(tmpdir(), 'oversell-pitfalls-')),
      command: 'pitfalls.int-spec (every preset, repeat 1)',
    },
    (line) => process.stdout.write(`${line}\n`),
  ));
}, 900_000);

const run = (preset: string, role: PitfallRunRecord['role']) => report.runs.find((r) => r.preset === preset && r.role === role)!;
const sidesOf = (preset: PitfallPreset) => report.runs.filter((r) => r.preset === preset.name);

it('runs every side of every preset once, in order, the broken side before its fix, every run completed', () => {
  expect(report.runs.map((r) => [r.preset, r.side, r.status])).toEqual(PITFALL_PRESETS.flatMap((p) => p.sides.map((s) => [p.name, s.label.en, 'completed'])));
});

describe.each(PITFALL_PRESETS.map((preset) => [preset.name, preset] as const))('%s', (_name, preset) => {
  it(`the broken side shows its pitfall (${preset.shows}), the fix stays clean`, () => {
    expect(sidesOf(preset).map((r) => [r.side, r.verdict])).toEqual(preset.sides.map((s) => [s.label.en, s.role === 'broken' ? 'showed' : 'clean']));
  });
});

it('double click: without the key more orders than clicks; with it one order per click', () => {
  const clicks = findPitfallPreset('double-click')!.sides[0].settings.load.totalRequests!;
  expect(run('double-click', 'broken').orders).toBeGreaterThan(clicks);
  expect(run('double-click', 'fix')).toMatchObject({ orders: clicks, oversold: 0 });
});

it('retry storm: db-optimistic retries more version checks than it sells; db-conditional never retries', () => {
  const broken = run('optimistic-retry-storm', 'broken');
  expect(broken.conflictRetries).toBeGreaterThan(broken.sold);
  expect(run('optimistic-retry-storm', 'fix')).toMatchObject({ conflictRetries: 0, oversold: 0 });
});

it('hot key: one lock leaves stock unsold; 20 segment locks sell it all out, with no lock timeout, and sell faster', () => {
  const { initialStock } = findPitfallPreset('hot-key')!.sides[0].settings;
  const oneLock = run('hot-key', 'broken');
  const segmented = run('hot-key', 'fix');
  expect(oneLock.sold).toBeLessThan(initialStock);
  expect(segmented).toMatchObject({ sold: initialStock, lockTimeouts: 0, oversold: 0 });
  expect(segmented.unitsPerSec!).toBeGreaterThan(oneLock.unitsPerSec!);
});

it('the faults of the fault presets fired, and the fixes sold nothing twice', () => {
  const injected = PITFALL_PRESETS.filter((p) => p.sides[0].settings.faults?.some((f) => f.kind !== 'double-click'));
  expect(injected.map((p) => [p.name, run(p.name, 'broken').faultsFired > 0])).toEqual(injected.map((p) => [p.name, true]));
  for (const r of report.runs.filter((r) => r.role === 'fix')) expect([r.preset, r.oversold]).toEqual([r.preset, 0]);
});

it('master failover, on a lab of its own with a Sentinel group: both broken sides grant the lock twice and sell the one unit twice; the fenced row sells it once, though its lock was granted twice too; RedLock, one of its five nodes lost, grants it once', () => {
  const sides = report.runs.filter((r) => r.preset === 'master-failover');
  expect(sides.map((r) => [r.strategy, r.faultsFired, r.exclusionViolations > 0, r.sold, r.oversold])).toEqual([
    ['uuid-lua', 1, true, 2, 1],
    ['watchdog', 1, true, 2, 1],
    ['watchdog-fenced-mysql', 1, true, 1, 0],
    ['redlock', 1, false, 1, 0],
  ]);
});

it('RedLock node restart: plain redlock grants the lock twice and sells the one unit twice; with delayed restarts the restarted node sits out and the unit sells once', () => {
  const sides = report.runs.filter((r) => r.preset === 'redlock-node-restart');
  expect(sides.map((r) => [r.strategy, r.faultsFired, r.exclusionViolations > 0, r.sold, r.oversold])).toEqual([
    ['redlock', 1, true, 2, 1],
    ['redlock-delayed-restart', 1, false, 1, 0],
  ]);
});

it("RedLock clock jump: plain redlock grants the lock twice and sells the one unit twice once a holder's node expires its grant early; the fenced row, on no node's clock, sells it once", () => {
  const sides = report.runs.filter((r) => r.preset === 'redlock-clock-jump');
  expect(sides.map((r) => [r.strategy, r.faultsFired, r.exclusionViolations > 0, r.sold, r.oversold])).toEqual([
    ['redlock', 1, true, 2, 1],
    ['watchdog-fenced-mysql', 1, false, 1, 0],
  ]);
});

it('tallies every preset as meeting the target, and writes JSON and markdown that name every run', () => {
  expect(report.presets.filter((t) => !(t.brokenTargetMet && t.fixTargetMet)).map((t) => t.preset)).toEqual([]);
  expect(report.allTargetsMet).toBe(true);
  const [jsonFile, markdownFile] = files;
  expect(jsonFile).toMatch(/pitfalls-.+\.json$/);
  expect(markdownFile).toMatch(/pitfalls-.+\.md$/);
  const json = JSON.parse(readFileSync(jsonFile, 'utf8')) as PitfallsReport;
  expect(json.runs.map((r) => r.runId)).toEqual(report.runs.map((r) => r.runId));
  const markdown = readFileSync(markdownFile, 'utf8');
  for (const r of report.runs) expect(markdown).toContain(`| ${r.runId} | ${r.verdict} |`);
  expect(markdown).toContain('| double-click | duplicates | 1/1 | 1/1 | 0 | met |');
  expect(markdown).toMatch(/hot-key: its cost is throughput .* broken [\d.]+ vs fix [\d.]+ units\/s/);
});
