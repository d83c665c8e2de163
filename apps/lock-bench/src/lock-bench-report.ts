import type { LockName } from './locks-under-test';
import type { WaitSummary } from './wait-histogram';

/** One lock measured once (one pass): its contended run and its uncontended bound. */
export interface LockBenchPass {
  lock: LockName;
  sections: number;
  /** The counter's final value: sections − counter increments were lost to overlapping holders. */
  counter: number;
  lostIncrements: number;
  timeouts: number;
  errors: number;
  errorSamples: string[];
  elapsedMs: number;
  sectionsPerSec: number;
  /**
   * Where each section's share of the run went (means, ms): `held` inside the section (GET + SET),
   * `between` with the lock idle between one holder's release call and the next grant: the lock's own
   * cost (release and acquire round trips, the wake-up of a waiter). Both sum to elapsed ÷ sections.
   * `between` is null when holders overlapped (more time held than elapsed): there was no idle lock.
   */
  perSectionMs: { held: number; between: number | null };
  /** Acquire waits of the sections that got the lock (timeouts are counted, not timed). */
  waitMs: WaitSummary;
  /** One process, one worker: acquire, GET, SET, release back to back, nobody else on the lock. */
  bound: { sectionsPerSec: number; roundTripMs: number };
  /** Contended sections/s ÷ the uncontended bound. */
  efficiency: number;
  /**
   * CPU time per section (µs) of the contended run, from /proc/<pid>/stat before and after it: the
   * bench's processes together (lock client, sections, IPC) and the shared Redis server (null when it
   * is not on this machine; it also counts any other client's load).
   */
  cpuUsPerSection: { processes: number | null; redis: number | null };
  /** The 1 min load average as the pass started this lock. */
  loadAverage: number;
}

/**
 * The bench's report: its JSON file, and the markdown table below drawn from it. A row is one lock's
 * median pass (medianRow in passes.ts), with every pass's figures beside it.
 */
export type LockBenchRow = Omit<LockBenchPass, 'loadAverage'> & {
  passes: { sectionsPerSec: number; waitP99Ms: number; loadAverage: number }[];
};

export interface LockBenchReport {
  command: string;
  startedAt: string;
  finishedAt: string;
  /** loadAverage: the 1, 5 and 15 min load averages as the report was written (a loaded machine's figures are lower). */
  machine: { cpus: number; memoryGb: number; node: string; loadAverage: number[] };
  settings: { processes: number; workers: number; seconds: number; passes: number; boundSeconds: number; leaseMs: number; waitMs: number; autoPipelining: boolean; keyPrefix: string };
  rows: LockBenchRow[];
}


const HEADER = '| lock | sections/s (median) | passes | CPU µs/section: processes | Redis | uncontended bound/s | efficiency | held ms | between ms | wait p50 ms | wait p99 ms | wait max ms | timeouts | lost increments | errors |';
const RULE = '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';

const line = (r: LockBenchRow) =>
  `| ${r.lock} | ${r.sectionsPerSec.toFixed(0)} | ${r.passes.map((p) => p.sectionsPerSec.toFixed(0)).join(' / ')} | ${r.cpuUsPerSection.processes ?? '–'} | ${r.cpuUsPerSection.redis ?? '–'} | ${r.bound.sectionsPerSec.toFixed(0)} | ${Math.round(r.efficiency * 100)} % | ${r.perSectionMs.held} | ${r.perSectionMs.between ?? '–'} | ${r.waitMs.p50} | ${r.waitMs.p99} | ${r.waitMs.max} | ${r.timeouts} | ${r.lostIncrements} | ${r.errors} |`;

export function markdownTable(report: LockBenchReport): string {
  const s = report.settings;
  const loads = report.rows.length ? report.rows[0].passes.map((_, pass) => Math.max(...report.rows.map((r) => r.passes[pass].loadAverage))) : [];
  return [
    `${s.passes} passes, each starting one lock further on; the row is the lock's median pass by sections/s, the correctness counts summed over all. Highest 1 min load average in each pass: ${loads.join(' / ')}.`,
    `${s.processes} processes × ${s.workers} workers for ${s.seconds} s per lock, each looping acquire → GET counter → SET counter+1 → release on one key; lease ${s.leaseMs} ms, wait ${s.waitMs} ms; ioredis ${s.autoPipelining ? 'with' : 'without'} auto-pipelining. Uncontended bound: 1 process × 1 worker for ${s.boundSeconds} s. ${report.machine.cpus} cores, Node ${report.machine.node}, one Redis (and one MariaDB for the lock table).`,
    '',
    HEADER,
    RULE,
    ...report.rows.map(line),
  ].join('\n');
}
