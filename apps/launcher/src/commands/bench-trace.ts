/**
 * `npm run bench -- --trace off,on,all`: the bench once per trace window, each on a lab of its own whose
 * instances are started with it (TRACED_ORDERS), so the instances' CPU per request with the trace on and
 * off reads side by side, strategy by strategy. A window is fixed when an instance starts, so the windows
 * take turns bench by bench; name them again (off,all,off,all) to see how far the machine drifts between.
 * Every other bench option applies to each bench.
 */
import { TRACE_WINDOW, type BenchReport } from '@oversell/contracts';
import { join } from 'node:path';
import { benchRowLabel } from '../reports/bench-report';
import { assertWritableDir, fileStamp, writeReportFiles } from '../reports/report-files';
import type { BenchOptions } from './bench-options';

/** Each window, as the instances' TRACED_ORDERS: the default window (512 orders per run), every order, none. */
export const TRACE_SETTINGS = {
  on: String(TRACE_WINDOW.defaultOrders),
  all: String(TRACE_WINDOW.maxOrders),
  off: '0',
} as const;
export type TraceSetting = keyof typeof TRACE_SETTINGS;
export const TRACE_SETTING_NAMES = Object.keys(TRACE_SETTINGS) as TraceSetting[];

/** What `npm run bench -- --trace …` writes: one bench per window, in the order given. */
export interface TraceReport {
  command: string;
  startedAt: string;
  finishedAt: string;
  runs: { trace: TraceSetting; report: BenchReport }[];
}

type RunBench = (options: BenchOptions, print: (line: string) => void) => Promise<{ report: BenchReport }>;

export async function runTraceSides(options: BenchOptions, traces: TraceSetting[], runBench: RunBench, print: (line: string) => void = console.log): Promise<{ report: TraceReport; files: string[] }> {
  assertWritableDir(options.outDir);
  const startedAt = new Date().toISOString();
  const stem = `trace-${fileStamp(startedAt)}`;
  const runs: TraceReport['runs'] = [];
  for (const [i, trace] of traces.entries()) {
    print(`\n== trace ${trace} (TRACED_ORDERS=${TRACE_SETTINGS[trace]}) ==`);
    // Each bench keeps its own files (and charts) in a folder of this run.
    const { report } = await runBench(
      { ...options, env: { ...options.env, TRACED_ORDERS: TRACE_SETTINGS[trace] }, outDir: join(options.outDir, stem, `${i + 1}-trace-${trace}`), command: `${options.command} (trace ${trace})` },
      print,
    );
    runs.push({ trace, report });
  }
  const report: TraceReport = { command: options.command, startedAt, finishedAt: new Date().toISOString(), runs };
  const markdown = traceTable(report);
  print(`\n${markdown}\n`);
  const files = writeReportFiles(options.outDir, stem, report, markdown, report.command);
  print(`written: ${files.join(', ')}`);
  return { report, files };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

/**
 * One line per strategy (the no-op ceiling first: it notes no step, so its ratio is the noise), a column
 * of the instances' CPU µs per request answered for each bench, in the order run, then each window's
 * median over its benches against off's.
 */
export function traceTable(report: TraceReport): string {
  const { runs } = report;
  const rowsOf = (run: BenchReport) => [...(run.ceiling ? [{ ...run.ceiling, label: 'no-op ceiling' }] : []), ...run.rows.map((row) => ({ ...row, label: benchRowLabel(row) }))];
  const labels = [...new Set(runs.flatMap(({ report: run }) => rowsOf(run).map((row) => row.label)))];
  const cpuOf = (run: BenchReport, label: string) => {
    const row = rowsOf(run).find((r) => r.label === label);
    return row?.status === 'completed' ? row.cpu?.perRequestUs.instance : undefined;
  };
  const compared = TRACE_SETTING_NAMES.filter((trace) => trace !== 'off' && runs.some((run) => run.trace === trace));
  const hasOff = runs.some((run) => run.trace === 'off');
  const ratio = (label: string, trace: TraceSetting) => {
    const of = (t: TraceSetting) => runs.filter((run) => run.trace === t).flatMap((run) => cpuOf(run.report, label) ?? []);
    const [side, off] = [of(trace), of('off')];
    return side.length && off.length ? (median(side) / median(off)).toFixed(3) : '–';
  };
  const header = ['strategy', ...runs.map((run, i) => `${i + 1}: trace ${run.trace}, µs/request`), ...(hasOff ? compared.map((trace) => `${trace} ÷ off`) : [])];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const first = runs[0]?.report;
  const s = first?.settings;
  return [
    s
      ? `Scenario \`${first.scenario}\`: stock ${s.initialStock}, ${s.connections} connections, ${s.durationSec ? `${s.durationSec} s` : `${s.totalRequests} requests`} per run; ${first.instances} instances; each window on a lab of its own (TRACED_ORDERS ${runs.map((run) => `${run.trace} = ${TRACE_SETTINGS[run.trace]}`).join(', ')}); the instances' CPU per request answered; ${first.machine.cpus} cores, Node ${first.machine.node}.`
      : 'No runs.',
    '',
    line(header),
    line(['---', ...header.slice(1).map(() => '---:')]),
    ...labels.map((label) => line([label, ...runs.map((run) => cpuOf(run.report, label)?.toFixed(0) ?? '–'), ...(hasOff ? compared.map((trace) => ratio(label, trace)) : [])])),
  ].join('\n');
}
