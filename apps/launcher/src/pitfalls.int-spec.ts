import { findPitfallPreset } from '@oversell/contracts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lab } from './lab';
import { runPitfalls } from './pitfalls';
import type { PitfallRunRecord, PitfallsReport } from './pitfalls-report';
import { startTestLab } from './testing/test-lab';

/**
 * `npm run pitfalls -- --preset double-click,optimistic-retry-storm --repeat 1` through the real lab
 * (2 instances, Redis, MySQL), by the function the CLI calls: the presets' own load and faults are what
 * is tested, so the broken sides must show their pitfall and the fixes must stay clean.
 */
let lab: Lab;
let report: PitfallsReport;
let files: string[];

beforeAll(async () => {
  lab = await startTestLab(2);
  ({ report, files } = await runPitfalls(
    {
      presets: [findPitfallPreset('double-click')!, findPitfallPreset('optimistic-retry-storm')!],
      repeat: 1,
      instances: 2,
      strict: false,
      url: lab.gatewayUrl,
      outDir: mkdtempSync(join(tmpdir(), 'oversell-pitfalls-')),
      command: 'pitfalls.int-spec (double-click, optimistic-retry-storm, repeat 1)',
    },
    (line) => process.stdout.write(`${line}\n`),
  ));
});

afterAll(async () => {
  await lab?.stop();
});

const run = (preset: string, role: PitfallRunRecord['role']) => report.runs.find((r) => r.preset === preset && r.role === role)!;

it('runs each preset once, the broken side before the fix, every run completed', () => {
  expect(report.runs.map((r) => [r.preset, r.role, r.status])).toEqual([
    ['double-click', 'broken', 'completed'],
    ['double-click', 'fix', 'completed'],
    ['optimistic-retry-storm', 'broken', 'completed'],
    ['optimistic-retry-storm', 'fix', 'completed'],
  ]);
});

it('double click: without the key more orders than clicks; with it one order per click', () => {
  const clicks = findPitfallPreset('double-click')!.sides[0].settings.load.totalRequests!;
  expect(run('double-click', 'broken')).toMatchObject({ verdict: 'showed' });
  expect(run('double-click', 'broken').orders).toBeGreaterThan(clicks);
  expect(run('double-click', 'fix')).toMatchObject({ verdict: 'clean', orders: clicks, oversold: 0 });
});

it('retry storm: db-optimistic retries more version checks than it sells; db-conditional never retries', () => {
  const broken = run('optimistic-retry-storm', 'broken');
  expect(broken.verdict).toBe('showed');
  expect(broken.conflictRetries).toBeGreaterThan(broken.sold);
  expect(run('optimistic-retry-storm', 'fix')).toMatchObject({ verdict: 'clean', conflictRetries: 0, oversold: 0 });
});

it('tallies both presets as meeting the target', () => {
  expect(report.presets.map((t) => [t.preset, t.broken, t.fix, t.brokenTargetMet && t.fixTargetMet])).toEqual([
    ['double-click', { showed: 1, runs: 1, failed: 0 }, { clean: 1, runs: 1, failed: 0 }, true],
    ['optimistic-retry-storm', { showed: 1, runs: 1, failed: 0 }, { clean: 1, runs: 1, failed: 0 }, true],
  ]);
  expect(report.allTargetsMet).toBe(true);
});

it('writes JSON and markdown that name every run', () => {
  const [jsonFile, markdownFile] = files;
  expect(jsonFile).toMatch(/pitfalls-.+\.json$/);
  expect(markdownFile).toMatch(/pitfalls-.+\.md$/);
  const json = JSON.parse(readFileSync(jsonFile, 'utf8')) as PitfallsReport;
  expect(json.runs.map((r) => r.runId)).toEqual(report.runs.map((r) => r.runId));
  const markdown = readFileSync(markdownFile, 'utf8');
  for (const r of report.runs) expect(markdown).toContain(`| ${r.runId} | ${r.verdict} |`);
  expect(markdown).toContain('| double-click | duplicates | 1/1 | 1/1 | 0 | met |');
});
