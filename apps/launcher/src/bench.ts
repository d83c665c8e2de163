/**
 * `npm run bench`: every strategy under one scenario, one after another (reset, load, reconcile), with
 * the no-op ceiling measured first (after a discarded warm-up) through the same gateway, instances and load tool. Prints a markdown
 * table and writes JSON + markdown under bench-results/.
 *   --scenario compare  --strategies a,b  --instances 3  --duration 8  --connections 100  --stock 500
 *   --url http://127.0.0.1:8080   (use a lab that is already running instead of starting one)
 */
import { STRATEGY_NAMES, isStrategyName, type BenchReport, type StrategyName } from '@oversell/contracts';
import { loadScenario } from '@oversell/loadtests';
import { benchRow, markdownTable, withCeiling } from './bench-report';
import { intOption, parse, UsageError } from './cli-options';
import { openLabSession, type LabRunOptions } from './lab-session';
import { BENCH_RESULTS_DIR } from './paths';
import { fileStamp, machineInfo, writeReportFiles } from './report-files';
import { followRuns } from './run-progress';

export interface BenchOptions extends LabRunOptions {
  scenario: string;
  strategies: StrategyName[];
  durationSec?: number;
  connections?: number;
  stock?: number;
}

export function parseBenchArgs(args: string[]): BenchOptions {
  const values = parse(args, {
    scenario: { type: 'string' },
    strategies: { type: 'string' },
    instances: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    stock: { type: 'string' },
    url: { type: 'string' },
    out: { type: 'string' },
  });
  const strategies = values.strategies ? String(values.strategies).split(',').map((s) => s.trim()) : [...STRATEGY_NAMES];
  const unknown = strategies.filter((s) => !isStrategyName(s));
  if (unknown.length) throw new UsageError(`--strategies: unknown ${unknown.join(', ')}; valid: ${STRATEGY_NAMES.join(', ')}`);
  return {
    scenario: String(values.scenario ?? 'compare'),
    strategies: strategies as StrategyName[],
    instances: intOption(values, 'instances', 3, 1, 16),
    durationSec: values.duration === undefined ? undefined : intOption(values, 'duration', 0, 1, 600),
    connections: values.connections === undefined ? undefined : intOption(values, 'connections', 0, 1, 2000),
    stock: values.stock === undefined ? undefined : intOption(values, 'stock', 0, 0, 1_000_000),
    url: values.url === undefined ? undefined : String(values.url),
    outDir: String(values.out ?? BENCH_RESULTS_DIR),
    command: `npm run bench${args.length ? ' -- ' + args.join(' ') : ''}`,
  };
}

export async function runBench(options: BenchOptions, print: (line: string) => void = console.log): Promise<{ report: BenchReport; files: string[] }> {
  const scenario = loadScenario(options.scenario);
  const load = {
    ...scenario.load,
    ...(options.connections ? { connections: options.connections } : {}),
    // A duration given on the command line replaces the scenario's bound (time or count).
    ...(options.durationSec ? { durationSec: options.durationSec, totalRequests: undefined } : {}),
  };
  const settings = {
    initialStock: options.stock ?? scenario.initialStock,
    lockTtlMs: scenario.lockTtlMs,
    businessDelayMs: scenario.businessDelayMs,
    segments: scenario.segments,
  };

  const startedAt = new Date();
  // No store-cut proxy: the bench runs no faults, and the extra hop costs throughput.
  const { client, lab, stop } = await openLabSession(options, { keyPrefix: 'ol-bench', basePort: 3101, storeProxy: false, log: print });
  try {
    // The batch opens with a discarded warm-up run (ceilingWarmUp), then measures the ceiling.
    const batch = await client.queueBatch({ ...settings, load, strategies: options.strategies, includeCeiling: true, scenario: scenario.name });
    const finished = await followRuns('bench', client, batch.runs, process.stdout, print);
    const { ceiling, rows } = withCeiling(finished.filter((run) => !run.params.warmUp).map(benchRow));
    const report: BenchReport = {
      command: options.command,
      scenario: scenario.name,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: machineInfo(),
      instances: lab ? options.instances : (finished[0]?.result?.instances.length ?? 0),
      settings: { ...settings, connections: load.connections, durationSec: load.durationSec, totalRequests: load.totalRequests },
      ceiling,
      rows,
    };
    const markdown = markdownTable(report);
    print(`\n${markdown}\n`);
    const files = [
      ...writeReportFiles(options.outDir, `bench-${fileStamp(report.startedAt)}`, report, markdown, report.command),
      ...writeReportFiles(options.outDir, 'latest', report, markdown, report.command),
    ];
    print(`written: ${files.slice(0, 2).join(', ')}`);
    return { report, files };
  } finally {
    await stop();
  }
}

if (require.main === module) {
  (async () => {
    const options = parseBenchArgs(process.argv.slice(2));
    const { report } = await runBench(options);
    const failed = [report.ceiling, ...report.rows].filter((r) => r && r.status === 'failed');
    process.exit(failed.length ? 1 : 0);
  })().catch((error: unknown) => {
    console.error(error instanceof UsageError ? `usage: ${error.message}` : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
