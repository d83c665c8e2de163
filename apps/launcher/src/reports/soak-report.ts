import type { RunView } from '@oversell/contracts';
import { benchRow } from './bench-report';

/** One instance at the end of one minute of the soak, as its /metrics said. */
export interface SoakSample {
  minute: number;
  instance: string;
  /** The instance's process id: a change means it was restarted, and its RSS started again. */
  pid: number | null;
  rssMb: number;
  /** What the RSS is made of, as V8 counts it: the JS heap it has reserved and uses, and memory outside it (Buffers). */
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  /** The event loop's delay p99 since the previous scrape (prom-client resets it at each scrape). */
  eventLoopP99Ms: number;
}

export interface SoakRun {
  strategy: string;
  runId: string;
  status: 'completed' | 'failed';
  failure: string | null;
  attempts: number;
  sold: number;
  errors: number;
  oversold: number;
  lost: number;
}

/** RSS within this much of the instance's RSS after the first minute counts as flat. */
export const RSS_FLAT_TOLERANCE = 0.1;

export interface SoakVerdict {
  /** Per instance: the largest departure from its RSS at minute 1, as a fraction of it (null: too short to say). */
  rssDrift: Record<string, number | null>;
  rssFlat: boolean;
  errors: number;
  lost: number;
  oversold: number;
  failedRuns: number;
  /** Every target met: RSS flat after the first minute, no errors, nothing lost or oversold, every run completed. */
  met: boolean;
}

export interface SoakReport {
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; memoryGb: number; node: string };
  settings: { minutes: number; connections: number; stock: number; instances: number; secondsPerStrategy: number; strategies: string[]; warmupSeconds: number };
  samples: SoakSample[];
  runs: SoakRun[];
  verdict: SoakVerdict;
}

export function soakRun(run: RunView): SoakRun {
  const { strategy, runId, status, failure, attempts, sold, oversold, lost } = benchRow(run);
  return { strategy, runId, status, failure, attempts, sold, errors: run.result?.counts.error ?? 0, oversold, lost };
}

/**
 * Judges the soak against its targets. RSS is judged per instance from the end of minute 1 (the heap has
 * grown to its working size by then) on; a restarted instance (new pid) fails it, since its memory started over.
 */
export function soakVerdict(samples: readonly SoakSample[], runs: readonly SoakRun[]): SoakVerdict {
  const rssDrift: Record<string, number | null> = {};
  let restarted = false;
  for (const instance of new Set(samples.map((s) => s.instance))) {
    const own = samples.filter((s) => s.instance === instance && s.minute >= 1);
    restarted ||= new Set(own.map((s) => s.pid)).size > 1;
    const base = own[0]?.rssMb;
    rssDrift[instance] = own.length < 2 || !base ? null : Math.max(...own.map((s) => Math.abs(s.rssMb - base) / base));
  }
  const drifts = Object.values(rssDrift);
  const rssFlat = !restarted && drifts.length > 0 && drifts.every((d) => d !== null && d <= RSS_FLAT_TOLERANCE);
  const sum = (pick: (run: SoakRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const verdict = { rssDrift, rssFlat, errors: sum((r) => r.errors), lost: sum((r) => r.lost), oversold: sum((r) => r.oversold), failedRuns: runs.filter((r) => r.status === 'failed').length };
  return { ...verdict, met: rssFlat && verdict.errors === 0 && verdict.lost === 0 && verdict.oversold === 0 && verdict.failedRuns === 0 && runs.length > 0 };
}

const percent = (fraction: number | null) => (fraction === null ? '–' : `${(fraction * 100).toFixed(1)} %`);

/** The soak as markdown: RSS and event-loop p99 per instance per minute, each run's figures, the verdict. */
export function soakMarkdown(report: SoakReport): string {
  const instances = [...new Set(report.samples.map((s) => s.instance))];
  const minutes = [...new Set(report.samples.map((s) => s.minute))].sort((a, b) => a - b);
  const cell = (minute: number, instance: string) => {
    const sample = report.samples.find((s) => s.minute === minute && s.instance === instance);
    return sample ? `${sample.rssMb.toFixed(1)} MB (heap ${sample.heapUsedMb.toFixed(0)}/${sample.heapTotalMb.toFixed(0)}, ext ${sample.externalMb.toFixed(0)}) · ${sample.eventLoopP99Ms.toFixed(1)} ms` : '–';
  };
  const { verdict, settings } = report;
  return [
    `## Soak: ${settings.minutes} min at ${settings.connections} clients over ${settings.stock} units, ${settings.instances} instances`,
    '',
    `Strategies (${settings.secondsPerStrategy} s each): ${settings.strategies.join(', ')}`,
    '',
    settings.warmupSeconds > 0 ? `Warm-up, not measured: each strategy ${settings.warmupSeconds} s over 1000 units before minute 0.` : 'No warm-up: minute 1 may not have loaded every strategy\'s clients yet.',
    '',
    'RSS (JS heap used/reserved, external, in MB) · event-loop delay p99, per instance at the end of each minute:',
    '',
    `| minute | ${instances.join(' | ')} |`,
    `|---|${instances.map(() => '---').join('|')}|`,
    ...minutes.map((minute) => `| ${minute} | ${instances.map((instance) => cell(minute, instance)).join(' | ')} |`),
    '',
    '| strategy | status | attempts | sold | errors | oversold | lost |',
    '|---|---|---|---|---|---|---|',
    ...report.runs.map((r) => `| ${r.strategy} | ${r.status}${r.failure ? ` (${r.failure})` : ''} | ${r.attempts} | ${r.sold} | ${r.errors} | ${r.oversold} | ${r.lost} |`),
    '',
    `RSS drift from minute 1: ${instances.map((i) => `${i} ${percent(verdict.rssDrift[i] ?? null)}`).join(', ')} (target ±${RSS_FLAT_TOLERANCE * 100} %: ${verdict.rssFlat ? 'flat' : 'NOT flat'})`,
    `errors ${verdict.errors}, lost ${verdict.lost}, oversold ${verdict.oversold}, failed runs ${verdict.failedRuns}`,
    `Target ${verdict.met ? 'met' : 'NOT met'}.`,
  ].join('\n');
}
