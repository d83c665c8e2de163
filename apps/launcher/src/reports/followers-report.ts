/** The report of `npm run bench:followers` (commands/bench-followers.ts): each run measured, and the ratios with ÷ without followers. */
import type { StrategyName } from '@oversell/contracts';
import type { MachineInfo } from './report-files';

/** One measured run. */
export interface FollowedRun {
  pair: number;
  followers: number;
  runId: string;
  unitsPerSec: number;
  p99Ms: number;
  /** The instances' CPU while the load ran, in cores (CPU ms ÷ wall ms, summed over the instances). */
  instanceCores: number | null;
  /** Followers that received the run's result over its events stream. */
  followersSawResult: number;
}

export interface FollowersBenchReport {
  command: string;
  startedAt: string;
  machine: MachineInfo;
  settings: { pairs: number; followers: number; strategy: StrategyName; stock: number; connections: number; durationSec: number; instances: number };
  runs: FollowedRun[];
  /** Medians with followers ÷ without. */
  ratios: { unitsPerSec: number; p99Ms: number; instanceCores: number | null };
}

export function followersMarkdown(report: FollowersBenchReport): string {
  const { settings } = report;
  const lines = [
    `Strategy ${settings.strategy}, stock ${settings.stock}, ${settings.connections} connections, ${settings.durationSec} s per run, ${settings.instances} instances; ${report.machine.cpus} CPUs, load average ${report.machine.loadAverage.join(' / ')} at the start.`,
    '',
    '| pair | followers | units/s | p99 (ms) | instances\' CPU (cores) | followers that saw the result |',
    '|---:|---:|---:|---:|---:|---:|',
    ...report.runs.map((r) => `| ${r.pair} | ${r.followers} | ${r.unitsPerSec} | ${r.p99Ms} | ${r.instanceCores ?? '–'} | ${r.followers ? `${r.followersSawResult}/${r.followers}` : '–'} |`),
    '',
    `Medians with ${settings.followers} followers ÷ without: units/s ×${report.ratios.unitsPerSec}, p99 ×${report.ratios.p99Ms}, instances' CPU ×${report.ratios.instanceCores ?? '–'}.`,
  ];
  return lines.join('\n');
}
