import type { BenchReport, BenchRow } from '@oversell/contracts';
import { benchRowLabel } from './bench-report';

/** What `npm run bench -- --instances 1,2,3` writes: the bench at each instance count, each on a lab of its own. */
export interface ScalingReport {
  command: string;
  startedAt: string;
  finishedAt: string;
  /** One bench per instance count, in the order given. */
  runs: BenchReport[];
}

function throughputCell(row: BenchRow | null | undefined): string {
  if (!row) return '–';
  return row.status === 'failed' ? 'failed' : row.throughput.toFixed(0);
}

/** Units/s from the first order to the sell-out; a strategy that never sold out says so. */
function phaseCell(row: BenchRow | undefined): string {
  if (!row || row.status === 'failed' || !row.contendedPhase) return '–';
  const phase = row.contendedPhase;
  return `${phase.unitsPerSec.toFixed(0)}${phase.soldOut ? '' : ' (never sold out)'}`;
}

/** One line per strategy (the no-op ceiling first), two columns per instance count: req/s and units/s in the contended phase. */
export function scalingTable(report: ScalingReport): string {
  const runs = report.runs;
  const labels = [...new Set(runs.flatMap((run) => run.rows.map(benchRowLabel)))];
  const header = ['strategy', ...runs.flatMap((run) => [`${run.instances} inst. req/s`, `${run.instances} inst. units/s in phase`])];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rowOf = (run: BenchReport, label: string) => run.rows.find((r) => benchRowLabel(r) === label);
  const first = runs[0];
  const s = first?.settings;
  return [
    s
      ? `Scenario \`${first.scenario}\`: stock ${s.initialStock}, ${s.connections} connections, ${s.durationSec ? `${s.durationSec} s` : `${s.totalRequests} requests`} per run; each instance count on a lab of its own; ${first.machine.cpus} cores, Node ${first.machine.node}.`
      : 'No runs.',
    '',
    line(header),
    line(['---', ...header.slice(1).map(() => '---:')]),
    line(['no-op ceiling', ...runs.flatMap((run) => [throughputCell(run.ceiling), '–'])]),
    ...labels.map((label) => line([label, ...runs.flatMap((run) => [throughputCell(rowOf(run, label)), phaseCell(rowOf(run, label))])])),
  ].join('\n');
}
