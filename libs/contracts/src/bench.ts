import type { ContendedPhase, RunTarget } from './runs';

/** One row of `npm run bench`: a strategy's run, or the no-op ceiling's. */
export interface BenchRow {
  strategy: RunTarget;
  runId: string;
  status: 'completed' | 'failed';
  failure: string | null;
  sold: number;
  oversold: number;
  lost: number;
  lockTimeouts: number;
  /** Orders refused after exhausting optimistic retries. */
  conflicts: number;
  /** Optimistic version checks that failed along the way. */
  conflictRetries: number;
  exclusionViolations: number;
  attempts: number;
  /** Requests answered per second, all instances together. */
  throughput: number;
  /** throughput ÷ the no-op ceiling's throughput, measured in the same bench. */
  ratioToCeiling: number | null;
  p50: number;
  p99: number;
  /** From the first order to the sell-out; null for the ceiling, a failed run, or a result without it. */
  contendedPhase: ContendedPhase | null;
  /** Peak resident memory of each instance during the run, in MB. */
  peakRssMb: number[];
}

/** What `npm run bench` writes to bench-results/*.json. */
export interface BenchReport {
  command: string;
  scenario: string;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; memoryGb: number; node: string };
  instances: number;
  settings: { initialStock: number; lockTtlMs?: number; businessDelayMs?: number; segments?: number; connections: number; durationSec?: number; totalRequests?: number };
  ceiling: BenchRow | null;
  rows: BenchRow[];
}
