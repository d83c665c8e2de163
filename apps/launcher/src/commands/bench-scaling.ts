/**
 * `npm run bench -- --instances 1,2,3,4`: the bench once per instance count, each on a lab of its own
 * with that many instances (the no-op ceiling measured again in each), for a few strategies (default
 * lua-decrement, watchdog, db-conditional). Prints a table of req/s and contended-phase units/s per count,
 * and writes it as JSON + markdown + an SVG curve under bench-results/, each count's bench beside it.
 * Every other bench option applies to each count (--units 100000 for a long sale).
 */
import { isStrategyName, type BenchReport, type StrategyName } from '@oversell/contracts';
import { join } from 'node:path';
import { writeScalingChart } from '../reports/bench-charts';
import { scalingTable, type ScalingReport } from '../reports/bench-scaling-report';
import type { BenchOptions } from './bench-options';
import { UsageError, wholeNumberList } from '@oversell/cli';
import { MAX_LAB_INSTANCES } from './cli-options';
import { assertWritableDir, fileStamp, writeReportFiles } from '../reports/report-files';

/** The strategies a scaling run compares unless --strategies names others: the atomic store op, the best lock, the SQL guard. */
const SCALING_STRATEGIES = ['lua-decrement', 'watchdog', 'db-conditional'].filter(isStrategyName);

export interface ScalingOptions extends BenchOptions {
  instanceCounts: number[];
}

/** The value of --instances (`--instances v` or `--instances=v`) and the arguments without it. */
function takeInstances(args: string[]): { value: string | undefined; rest: string[] } {
  const at = args.findIndex((a) => a === '--instances' || a.startsWith('--instances='));
  if (at < 0) return { value: undefined, rest: args };
  const inline = args[at].startsWith('--instances=');
  return { value: inline ? args[at].slice('--instances='.length) : args[at + 1], rest: [...args.slice(0, at), ...args.slice(at + (inline ? 1 : 2))] };
}

/** True when --instances names more than one count: the bench then runs once per count. */
export function isScalingRun(args: string[]): boolean {
  return takeInstances(args).value?.includes(',') ?? false;
}

/** The counts of a scaling run. */
export const SCALING_COUNTS = wholeNumberList(1, MAX_LAB_INSTANCES);

function instanceCounts(raw: string): number[] {
  try {
    return SCALING_COUNTS.parse(raw, undefined);
  } catch (error) {
    // Said as commander says a bad value: this option is taken apart before commander parses the rest.
    throw new UsageError(`option '--instances <n>' argument '${raw}' is invalid. ${(error as Error).message}`);
  }
}

/**
 * The bench's options, validated by the bench's own parser (passed in: the bench's CLI calls this one),
 * with the list of instance counts.
 */
export function parseScalingArgs(args: string[], parseBenchArgs: (args: string[]) => BenchOptions): ScalingOptions {
  const { value, rest } = takeInstances(args);
  if (value === undefined) throw new UsageError('--instances: give a comma list of instance counts, e.g. 1,2,3,4');
  const bench = parseBenchArgs(rest);
  if (bench.url !== undefined) throw new UsageError('--instances with a list starts a lab of each count; a lab at --url has the instances it has: give one of them');
  const strategiesGiven = rest.some((a) => a === '--strategies' || a.startsWith('--strategies='));
  return {
    ...bench,
    strategies: strategiesGiven ? bench.strategies : (SCALING_STRATEGIES as StrategyName[]),
    instanceCounts: instanceCounts(value),
    command: `npm run bench -- ${args.join(' ')}`,
  };
}

/** runBench, passed in by the bench's CLI. */
type RunBench = (options: BenchOptions, print: (line: string) => void) => Promise<{ report: BenchReport }>;

export async function runScaling(options: ScalingOptions, runBench: RunBench, print: (line: string) => void = console.log): Promise<{ report: ScalingReport; files: string[] }> {
  assertWritableDir(options.outDir);
  const startedAt = new Date().toISOString();
  const stem = `scaling-${fileStamp(startedAt)}`;
  const runs: BenchReport[] = [];
  for (const instances of options.instanceCounts) {
    print(`\n== ${instances} instance${instances === 1 ? '' : 's'} ==`);
    // Each count's bench keeps its own files (and charts) in a folder of the scaling run.
    const { report } = await runBench({ ...options, instances, outDir: join(options.outDir, stem, `${instances}-instances`), command: `${options.command} (${instances} instances)` }, print);
    runs.push(report);
  }
  const report: ScalingReport = { command: options.command, startedAt, finishedAt: new Date().toISOString(), runs };
  const markdown = scalingTable(report);
  print(`\n${markdown}\n`);
  const files = [...writeReportFiles(options.outDir, stem, report, markdown, report.command), ...(await writeScalingChart(options.outDir, stem, report))];
  print(`written: ${files.join(', ')}`);
  return { report, files };
}
