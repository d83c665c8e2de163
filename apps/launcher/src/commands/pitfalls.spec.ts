import { findPitfallPreset, PITFALL_PRESETS } from '@oversell/contracts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@oversell/cli';
import { parsePitfallsArgs, pitfallsExitCode, runPitfalls } from './pitfalls';
import type { PitfallsReport } from '../reports/pitfalls-report';
import { freePort } from '../testing/test-lab';

describe('parsePitfallsArgs', () => {
  it('runs every preset once on 2 instances by default', () => {
    expect(parsePitfallsArgs([])).toMatchObject({ presets: [...PITFALL_PRESETS], repeat: 1, instances: 2, strict: false, command: 'npm run pitfalls' });
  });

  it('takes --preset repeated or as a comma list, each preset once, in the order given', () => {
    const options = parsePitfallsArgs(['--preset', 'double-click,mis-deletion', '--preset', 'optimistic-retry-storm', '--preset', 'double-click', '--repeat', '3', '--strict']);
    expect(options.presets.map((p) => p.name)).toEqual(['double-click', 'mis-deletion', 'optimistic-retry-storm']);
    expect(options).toMatchObject({ repeat: 3, strict: true });
  });

  it('refuses an unknown preset, naming it and listing the valid ones', () => {
    expect(() => parsePitfallsArgs(['--preset', 'double-click,no-such'])).toThrow(UsageError);
    expect(() => parsePitfallsArgs(['--preset', 'no-such'])).toThrow(`option '--preset <list>' argument 'no-such' is invalid. Unknown no-such; valid: ${PITFALL_PRESETS.map((p) => p.name).join(', ')}.`);
  });

  it('refuses a repeat that is not a whole number from 1', () => {
    expect(() => parsePitfallsArgs(['--repeat', '0'])).toThrow("option '--repeat <n>' argument '0' is invalid. It must be a whole number from 1 to 1000.");
    expect(() => parsePitfallsArgs(['--repeat', '1e2'])).toThrow("option '--repeat <n>' argument '1e2' is invalid. It must be a whole number from 1 to 1000.");
  });

  it('refuses an empty --preset, never taking it for every preset, and a --url that is no URL', () => {
    expect(() => parsePitfallsArgs(['--preset='])).toThrow("option '--preset <list>' argument '' is invalid. It is empty");
    expect(() => parsePitfallsArgs(['--preset', ','])).toThrow("option '--preset <list>' argument ',' is invalid. It is empty");
    expect(() => parsePitfallsArgs(['--url', 'nope'])).toThrow("option '--url <base>' argument 'nope' is invalid. It must be an http(s) URL");
  });
});

describe('runPitfalls with nowhere to write its report', () => {
  it('refuses before running anything: a report lost at the end is the whole run lost', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'oversell-pitfalls-')), 'a-file');
    writeFileSync(file, '');
    const runs: string[] = [];
    const run = runPitfalls({ presets: [findPitfallPreset('double-click')!], repeat: 1, instances: 2, strict: false, url: 'http://127.0.0.1:1', outDir: join(file, 'reports'), command: 'pitfalls.spec' }, (line) => runs.push(line));
    await expect(run).rejects.toThrow(`--out: cannot write reports to ${join(file, 'reports')} (ENOTDIR)`);
    await expect(run).rejects.toBeInstanceOf(UsageError);
    expect(runs).toEqual([]);
  });
});

describe('runPitfalls without a lab to run on', () => {
  it('still writes the report: the first run failed with the reason it could not be queued, the rest not run', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'oversell-pitfalls-'));
    const url = `http://127.0.0.1:${await freePort()}`;
    const presets = [findPitfallPreset('double-click')!, findPitfallPreset('hot-key')!];
    const { report, files } = await runPitfalls({ presets, repeat: 1, instances: 2, strict: false, url, outDir, command: 'pitfalls.spec (nothing listening)' }, () => undefined);

    expect(report.runs.map((r) => [r.preset, r.role, r.status, r.verdict, r.runId])).toEqual([
      ['double-click', 'broken', 'failed', 'failed', null],
      ['double-click', 'fix', 'failed', 'failed', null],
      ['hot-key', 'broken', 'failed', 'failed', null],
      ['hot-key', 'fix', 'failed', 'failed', null],
    ]);
    const reason = 'could not be queued: fetch failed (ECONNREFUSED)';
    expect(report.runs.map((r) => r.failure)).toEqual([reason, ...Array(3).fill(`not run: double-click #1 broken (lua-decrement) ${reason}`)]);
    expect(report.presets.map((t) => [t.broken.failed, t.fix.failed, t.brokenTargetMet, t.fixTargetMet])).toEqual([
      [1, 1, false, false],
      [1, 1, false, false],
    ]);
    const json = JSON.parse(readFileSync(files[0], 'utf8')) as PitfallsReport;
    expect(json.runs).toHaveLength(4);
    expect(readFileSync(files[1], 'utf8')).toContain(`| double-click | without an idempotency key | broken | 1 | – | failed: ${reason} |`);
    // Nothing ran: the command fails, with --strict or without.
    expect([pitfallsExitCode(report, false), pitfallsExitCode(report, true)]).toEqual([1, 1]);
    const oneRan = { ...report, runs: [{ ...report.runs[0], status: 'completed' as const }, ...report.runs.slice(1)] };
    expect([pitfallsExitCode(oneRan, false), pitfallsExitCode(oneRan, true)]).toEqual([0, 1]);
  });
});
