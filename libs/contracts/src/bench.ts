import type { OrderWrite } from './products';
import type { ContendedPhase, ProcessCpu, RunTarget } from './runs';

/** One row of `npm run bench`: a strategy's run, or the no-op ceiling's. */
export interface BenchRow {
  strategy: RunTarget;
  /** How the run wrote its orders (RunParams.orderWrite); a bench of both has a row of each per strategy. */
  orderWrite: OrderWrite;
  runId: string;
  status: 'completed' | 'failed';
  failure: string | null;
  sold: number;
  /** Units sold twice (unitsSoldTwice): what says whether the strategy held, sold out or not. */
  soldTwice: number;
  /** Of those, units sold beyond the initial stock. */
  oversold: number;
  lost: number;
  lockTimeouts: number;
  /** Orders refused after exhausting optimistic retries. */
  conflicts: number;
  /** Optimistic version checks that failed along the way. */
  conflictRetries: number;
  exclusionViolations: number;
  attempts: number;
  /**
   * Requests answered with an error (outcome error: a store that did not answer, a failure of the
   * service): the row's req/s and latency are then partly those of the errors, not of the strategy.
   */
  errors: number;
  /**
   * CPU per process role while the load ran (RunResult.cpu), in µs per request answered and per unit
   * sold: where an order's cost goes on the machine. Null for runs from before it was measured; a role
   * absent where its processes could not be read from the run's machine.
   */
  cpu: { perRequestUs: Partial<Record<ProcessCpu['role'], number>>; perUnitUs: Partial<Record<ProcessCpu['role'], number>> } | null;
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
  /** Lock strategies only (kind 'lock'): the uncontended round trip and how close the contended phase came to it. */
  roundTrip: RoundTripBound | null;
}

/**
 * A lock strategy's round-trip bound, from an uncontended run in the same bench (one connection): each
 * order's section from asking for the lock to letting it go (acquire, read, write, release sent). Under
 * contention the lock passes from holder to holder, so no more sections than 1 ÷ that time fit in a second.
 */
export interface RoundTripBound {
  /** Median section of the uncontended run, in ms. */
  holdMs: number;
  /** 1000 ÷ holdMs. */
  boundPerSec: number;
  /** Sections the median was taken over. */
  sections: number;
  /** The contended phase's units/s ÷ boundPerSec; null when the strategy's run has no contended phase. */
  efficiency: number | null;
}

/** A no-op measured in the same bench as the ceiling, by the same load tool with the same load, counted by the server it reached. */
export interface NoopMeasure {
  /** Requests answered per second, from the first request's arrival to the last answer, counted as the service's instances count a run's. */
  throughput: number;
  /** Requests answered. */
  requests: number;
  /** How long the load tool ran. */
  durationSec: number;
}

/** The stack's own cost: a bare Fastify process answering the same POST /api/noop, beside the service's no-op ceiling. */
export interface BareFastifyRow extends NoopMeasure {
  /** The service's no-op ceiling ÷ this throughput (the target is ≥ 0.5); null without a ceiling. */
  ceilingShare: number | null;
}

/**
 * The service's no-op through the lab's gateway, the entry point k6 and `npm run load` use by default
 * (the runs, and so the ceiling, drive the instances at their own ports). Counted by the gateway.
 */
export interface GatewayNoopRow extends NoopMeasure {
  /** This throughput ÷ bare Fastify's; null without one. */
  bareShare: number | null;
  /** This throughput ÷ the ceiling's: what the gateway hop leaves of the instances' own no-op; null without a ceiling. */
  ceilingShare: number | null;
}

/** What `npm run bench` writes to bench-results/*.json. */
export interface BenchReport {
  command: string;
  scenario: string;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; memoryGb: number; node: string };
  instances: number;
  settings: { initialStock: number; lockTtlMs?: number; businessDelayMs?: number; segments?: number; connections: number; durationSec?: number; totalRequests?: number; orderWrites: OrderWrite[] };
  ceiling: BenchRow | null;
  /** Null when the bench drove a lab at --url, whose machine it does not share. */
  bareFastify: BareFastifyRow | null;
  /** Null when the bench drove a lab at --url (its gateway is not the bench's to count). */
  throughGateway: GatewayNoopRow | null;
  rows: BenchRow[];
}
