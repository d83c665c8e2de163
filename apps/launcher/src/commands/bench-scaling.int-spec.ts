import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs, runBench } from './bench';
import type { ScalingReport } from '../reports/bench-scaling-report';
import { parseScalingArgs, runScaling } from './bench-scaling';
import { freePortRange, testLabEnv } from '../testing/test-lab';

/**
 * The scaling bench for real, kept short: one strategy at 1 and 2 instances, 2 s each (scenario smoke).
 * Asserts what each count measured and what was written; timings are printed, never asserted.
 */
let report: ScalingReport;
let files: string[];

beforeAll(async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'oversell-scaling-'));
  const options = parseScalingArgs(['--instances', '1,2', '--strategies', 'lua-decrement', '--scenario', 'smoke', '--duration', '2', '--units', '30', '--out', outDir], parseBenchArgs);
  ({ report, files } = await runScaling({ ...options, env: testLabEnv(), basePort: await freePortRange(2) }, runBench, (line) => process.stdout.write(`${line}\n`)));
});

it('runs the bench once per instance count, each on a lab of that many instances, the ceiling measured in each', () => {
  expect(report.runs.map((run) => run.instances)).toEqual([1, 2]);
  for (const run of report.runs) {
    expect(run.ceiling).toMatchObject({ strategy: 'noop', status: 'completed' });
    expect(run.ceiling!.peakRssMb).toHaveLength(run.instances);
    expect(run.rows).toHaveLength(1);
    // 2 s may end before the 30 units sell out on a loaded machine: what sold, sold once.
    const row = run.rows[0];
    expect(row).toMatchObject({ strategy: 'lua-decrement', status: 'completed', oversold: 0, lost: 0 });
    expect(row.sold).toBeGreaterThan(0);
    expect(row.sold).toBeLessThanOrEqual(30);
    expect(row.contendedPhase?.units).toBe(row.sold);
  }
});

it('writes the scaling table, its JSON and its curve, with every count in them', () => {
  const [json, markdown, svg] = files;
  expect((JSON.parse(readFileSync(json, 'utf8')) as ScalingReport).runs.map((run) => run.instances)).toEqual([1, 2]);
  expect(readFileSync(markdown, 'utf8')).toMatch(/\| strategy \| 1 inst\. req\/s \| 1 inst\. units\/s in phase \| 2 inst\. req\/s \| 2 inst\. units\/s in phase \|/);
  const curve = readFileSync(svg, 'utf8');
  for (const run of report.runs) {
    expect(curve).toContain(`instances: ${run.instances}; per second: ${Math.round(run.ceiling!.throughput)}; series: no-op ceiling`);
    expect(curve).toContain(`instances: ${run.instances}; per second: ${Math.round(run.rows[0].throughput)}; series: lua-decrement`);
  }
});

it("keeps each count's bench, with its charts, in a folder of the scaling run", () => {
  const dir = join(files[0].replace(/\.json$/, ''), '2-instances');
  for (const name of ['latest.json', 'latest.md', 'latest-throughput.svg', 'latest-p99.svg']) expect(existsSync(join(dir, name))).toBe(true);
});
