import type { OrderOutcome } from './orders';
import type { StrategyName } from './strategies';

export const RUN_LIMITS = {
  maxStock: 1_000_000,
  maxConnections: 2000,
  maxDurationSec: 600,
  maxTotalRequests: 2_000_000,
  maxArrivalRate: 50_000,
  maxLockTtlMs: 60_000,
  maxBusinessDelayMs: 30_000,
} as const;

/** How the load is shaped: closed model (connections) or open model (arrivalRate), bounded by time or count. */
export interface LoadProfile {
  /** Concurrent virtual users / connections. */
  connections: number;
  /** Requests per second to start (open model); omitted = each connection sends as fast as answered. */
  arrivalRate?: number;
  durationSec?: number;
  totalRequests?: number;
  /** Units asked for by each order (default 1). */
  quantity?: number;
}

/** The no-op endpoint, run through the same proxy and instances, is the ceiling every strategy is compared to. */
export const NOOP_TARGET = 'noop';
export type RunTarget = StrategyName | typeof NOOP_TARGET;

export interface RunParams {
  /** A strategy, or 'noop' to measure the stack's ceiling. */
  strategy: RunTarget;
  initialStock: number;
  lockTtlMs?: number;
  businessDelayMs?: number;
  segments?: number;
  load: LoadProfile;
  /** Optional product id; the run picks a fresh one when omitted. */
  productId?: number;
  /** Name of a scenario file in loadtests/scenarios this run came from, if any. */
  scenario?: string;
  /** Groups the runs of one "run all" comparison. */
  batchId?: string;
}

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed';

export type OutcomeCounts = Record<OrderOutcome, number> & { attempts: number };

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** One second of a run, summed over all instances. */
export interface TimelinePoint {
  /** Seconds since the run's load started. */
  t: number;
  attempts: number;
  sold: number;
  /** Units sold so far (cumulative). */
  soldTotal: number;
  /** Stock left in the strategy's store at the end of this second. */
  remaining: number;
  p99: number;
  /** Distinct lock holders seen during this second (lock strategies). */
  lockHolders: number;
}

/** One holding of a lock by one request on one instance. Times are epoch ms with fractions. */
export interface LockEvent {
  lockKey: string;
  instance: string;
  requestId: string;
  /** When the request started waiting for the lock; acquiredAt − requestedAt is the lock wait. */
  requestedAt: number;
  acquiredAt: number;
  releasedAt: number;
  /** The lease ran out before release (the holder no longer owned the lock when it let go). */
  expired: boolean;
}

export interface Reconciliation {
  initialStock: number;
  remaining: number;
  sold: number;
  orders: number;
  oversold: number;
  /** Units neither sold nor available (taken from the store with no order), plus units ordered that the store never gave. */
  lost: number;
  /** Overlapping lock holdings of the same lock key (mutual-exclusion violations). */
  exclusionViolations: number;
  storesAgree: boolean;
}

export interface InstanceFigures {
  instance: string;
  port: number;
  attempts: number;
  peakRssBytes: number;
}

export interface RunResult {
  counts: OutcomeCounts;
  /** Optimistic version checks that failed (each one retried or, at the limit, answered conflict). */
  conflictRetries: number;
  latency: LatencySummary;
  throughput: number;
  durationSec: number;
  timeline: TimelinePoint[];
  lockEvents: LockEvent[];
  reconciliation: Reconciliation;
  instances: InstanceFigures[];
  /** Which tool drove the load. */
  driver: 'node' | 'k6';
}

export interface RunView {
  id: string;
  status: RunStatus;
  params: RunParams;
  productId: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Why a failed run failed. */
  failure: string | null;
  result: RunResult | null;
}

/** What GET /api/runs/:id/events streams (server-sent events, `event:` = type). */
export type RunEvent =
  | { type: 'status'; runId: string; status: RunStatus; failure?: string | null }
  | { type: 'progress'; runId: string; point: TimelinePoint; counts: OutcomeCounts; oversold: number }
  | { type: 'lock'; runId: string; events: LockEvent[] }
  | { type: 'result'; runId: string; run: RunView };

/** POST /api/runs/batch: one scenario, every strategy (and the no-op ceiling first), queued in order. */
export interface RunBatchRequest {
  initialStock: number;
  lockTtlMs?: number;
  businessDelayMs?: number;
  segments?: number;
  load: LoadProfile;
  /** Defaults to every registered strategy. */
  strategies?: StrategyName[];
  /** Measure the no-op ceiling first (default true). */
  includeCeiling?: boolean;
  scenario?: string;
}

export interface RunBatchView {
  batchId: string;
  runs: RunView[];
}
