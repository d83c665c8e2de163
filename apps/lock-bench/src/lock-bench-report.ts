import type { LockBenchReport, LockBenchRow } from './lock-bench';

const HEADER = '| lock | sections/s | uncontended bound/s | efficiency | held ms | between ms | wait p50 ms | wait p99 ms | wait max ms | timeouts | lost increments | errors |';
const RULE = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';

const line = (r: LockBenchRow) =>
  `| ${r.lock} | ${r.sectionsPerSec.toFixed(0)} | ${r.bound.sectionsPerSec.toFixed(0)} | ${Math.round(r.efficiency * 100)} % | ${r.perSectionMs.held} | ${r.perSectionMs.between ?? '–'} | ${r.waitMs.p50} | ${r.waitMs.p99} | ${r.waitMs.max} | ${r.timeouts} | ${r.lostIncrements} | ${r.errors} |`;

export function markdownTable(report: LockBenchReport): string {
  const s = report.settings;
  return [
    `${s.processes} processes × ${s.workers} workers for ${s.seconds} s per lock, each looping acquire → GET counter → SET counter+1 → release on one key; lease ${s.leaseMs} ms, wait ${s.waitMs} ms; ioredis ${s.autoPipelining ? 'with' : 'without'} auto-pipelining. Uncontended bound: 1 process × 1 worker for ${s.boundSeconds} s. ${report.machine.cpus} cores, Node ${report.machine.node}, one Redis (and one MariaDB for the lock table).`,
    '',
    HEADER,
    RULE,
    ...report.rows.map(line),
  ].join('\n');
}
