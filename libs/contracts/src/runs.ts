import type { FaultEvent } from './faults';
import type { Localized } from './locale';
import type { OrderOutcome } from './orders';
import type { LockSettings, RunSettings, SettledLate, StockMovesAudit } from './products';
import { STRATEGY_NAMES, type StrategyName } from './strategies';
import type { RunTrace } from './sequence';

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
/** Every target a run can drive: the strategies, then the no-op ceiling. */
export const RUN_TARGETS: readonly RunTarget[] = [...STRATEGY_NAMES, NOOP_TARGET];

/** Whether a run's target is the no-op ceiling (nothing behind the route: no stock, no faults, no reconciliation) rather than a strategy. */
export function isCeilingTarget(target: RunTarget): target is typeof NOOP_TARGET {
  return target === NOOP_TARGET;
}

/** What a run, a batch and a scenario file share: the run's settings but its strategy, and the load. */
export interface ScenarioSettings extends Pick<RunSettings, 'initialStock' | 'faults'>, LockSettings {
  load: LoadProfile;
}

export interface RunParams extends ScenarioSettings {
  /** A strategy, or 'noop' to measure the stack's ceiling. */
  strategy: RunTarget;
  /** Optional product id; the run picks a fresh one when omitted. */
  productId?: number;
  /** Name of a scenario file in loadtests/scenarios this run came from, if any. */
  scenario?: string;
  /** Groups the runs of one "run all" comparison. */
  batchId?: string;
  /** The discarded no-op run a batch opens with (ceilingWarmUp); never a ceiling itself. */
  warmUp?: boolean;
}

/**
 * What a batch queues before its no-op ceiling: a short no-op run with the same connections, whose
 * figures are discarded. Freshly started instances run cold (JIT, pools, keep-alive connections); a
 * ceiling measured cold comes out low, and strategies measured warm after it then show above 100 %.
 */
export function ceilingWarmUp(load: LoadProfile): Pick<RunParams, 'strategy' | 'load' | 'warmUp'> {
  return { strategy: NOOP_TARGET, load: { connections: load.connections, durationSec: 3 }, warmUp: true };
}

/** A completed no-op run that measured a ceiling (the warm-up before it did not). */
export function isCeilingRun(run: RunView): boolean {
  return isCeilingTarget(run.params.strategy) && !run.params.warmUp && run.status === 'completed' && run.result !== null;
}

/** Shown instead of a share above 100 %: no strategy outruns a no-op through the same stack. */
export const CEILING_MEASURED_LOW: Localized = { en: 'ceiling measured low — rerun', 'zh-CN': '上限测得偏低——请重跑' };

/**
 * A strategy's throughput as a whole percent of the ceiling's, or null when that is above 100 %: then
 * the ceiling, not the strategy, is what the figure shows (measured cold or on a busier moment).
 */
export function ceilingPercent(ratio: number): number | null {
  const percent = Math.round(ratio * 100);
  return percent > 100 ? null : percent;
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
  /**
   * Units gone for good: taken from the store with no order (by request id where the store notes its
   * moves). Before lostUpdates existed, this also counted the lost updates.
   */
  lost: number;
  /** Units sold twice because one write overwrote another (the no-lock anomaly). Absent in results from before it existed. */
  lostUpdates?: number;
  /**
   * The store's moves against the orders by request id: counts and the first ids of requests that took
   * with no order, ordered without taking, or took twice. null where the store keeps no moves of its own
   * (a MySQL row); absent in results from before it existed.
   */
  moves?: StockMovesAudit | null;
  /** Overlapping lock holdings of the same lock key (mutual-exclusion violations). */
  exclusionViolations: number;
  /**
   * Lock holdings not kept (beyond the per-instance cap of a run): above 0, exclusionViolations was
   * counted over part of the holdings only and is a lower bound. Absent in results from before it existed.
   */
  lockEventsDropped?: number;
  storesAgree: boolean;
  /**
   * orderWrite 'queued': this run's orders still in the write queue when the reconciliation stopped
   * waiting for it: not written yet when its bound passed, or failed for good (such a job is kept in the
   * queue), i.e. orderWrite.stillQueued + orderWrite.failed. Each is a take with no order row yet, so it
   * also shows in moves and lost until it is written. Counted by the jobs' run id: jobs other runs left in
   * the queue (the lab's runs share it) are not this run's. orderWrite 'stream': the run's orders still in
   * its stream. Absent for sync runs.
   */
  ordersStillQueued?: number;
  /** Takes settled after MySQL came back (see SettledLate). Absent in results from before it existed. */
  settledLate?: SettledLate;
  /**
   * The run's stock store lost its keys (Redis restarted without persistence, or was flushed): remaining
   * and lost are then not measurements. Absent in results from before it existed.
   */
  storeLost?: boolean;
}

/**
 * CPU each process of the lab spent while the load ran (from its start to its end), read off the
 * machine the run executed on: on two cores the load tool, the instances, Redis and MariaDB compete, and
 * a req/s ratio hides who paid. A process whose figures could not be read (another machine, another
 * container) is absent.
 */
export interface ProcessCpu {
  role: 'load-tool' | 'instance' | 'redis' | 'mysql';
  /** The instance's name, or the server's address. */
  name: string;
  cpuMs: number;
}

export interface RunCpu {
  /** The load's wall time the figures cover, in ms. */
  windowMs: number;
  processes: ProcessCpu[];
}

export interface InstanceFigures {
  instance: string;
  port: number;
  attempts: number;
  peakRssBytes: number;
}

/**
 * The part of a run where orders still compete for stock: from the second of the first order to the
 * second in which the stock ran out (units sold reached the initial stock; or, when units went
 * missing and the sold count never gets there, the store's remaining reached 0). What comes after is the sold-out phase, where a strategy only has to say "sold out"
 * cheaply, and which dominates a run's overall req/s when most requests arrive late.
 */
export interface ContendedPhase {
  /** The stock ran out during the run; when false the phase runs to the last answer (the load's end). */
  soldOut: boolean;
  /**
   * From the first request's arrival to the last sale (sold out) or the last answer (never sold out), in
   * ms as the instances timed them. When more than the stock was sold (which sale emptied it is not
   * known), to the end of the second the count reached the stock; whole seconds in results from before.
   */
  durationMs: number;
  /** Requests answered in the phase's seconds. */
  attempts: number;
  units: number;
  unitsPerSec: number;
  /** Latency percentiles of the requests in the phase's seconds, in ms. */
  p50: number;
  p99: number;
}

/** The order-write queue's backlog in one second of a queued run: the highest of the second's samples. */
export interface OrderQueuePoint {
  /** Seconds since the run's load started. */
  t: number;
  /** Orders queued and not yet written. */
  depth: number;
  /** Age of the oldest of them, in ms (0 with none). */
  lagMs: number;
}

/** How a run's queued orders reached MySQL (orderWrite 'queued'; for 'stream' the same figures, read from the order streams, none failing for good). */
export interface OrderWriteFigures {
  /** The backlog each second, from the load's start to the end of the drain. */
  backlog: OrderQueuePoint[];
  peakDepth: number;
  peakLagMs: number;
  /**
   * From the end of the load (before the instances' flush) until the queue was empty, or until the
   * reconciliation stopped waiting: its bound (30 s) also counts from the load's end. The wait is for the
   * whole queue, the writers taking jobs in order.
   */
  drainMs: number;
  /**
   * This run's orders still queued, not written yet, when it stopped waiting: 0 when they were written
   * within the bound. Counted by the jobs' run id, not over the whole queue. Jobs failed for good are in
   * `failed`, not here.
   */
  stillQueued: number;
  /** This run's orders whose jobs failed for good (their retries ran out): not written, kept in the queue. */
  failed: number;
}

export interface RunResult {
  counts: OutcomeCounts;
  /** Optimistic version checks that failed (each one retried or, at the limit, answered conflict). */
  conflictRetries: number;
  latency: LatencySummary;
  /**
   * Answers per second: every answered request ÷ the time from the first request's arrival to the last
   * answer, as the instances timed them (the orders still waiting for a lock when the load stops are
   * answered after it, and their time counts too).
   */
  throughput: number;
  /** How long the load tool ran, from its start to its end. */
  durationSec: number;
  timeline: TimelinePoint[];
  lockEvents: LockEvent[];
  reconciliation: Reconciliation;
  instances: InstanceFigures[];
  /** Which tool drove the load. */
  driver: 'node' | 'k6';
  /** Absent for no-op runs, runs that sent no order, and results from before it existed. */
  contendedPhase?: ContendedPhase;
  /** The faults injected, in the order they fired. Absent in results from before faults existed. */
  faults?: FaultEvent[];
  /**
   * Instances a crash fault killed during the run: the figures they had not flushed yet are missing from
   * the counts and the timeline (the reconciliation reads MySQL's orders, which stay the truth).
   */
  crashedInstances?: string[];
  /** orderWrite 'queued' or 'stream': the write queue's (or the order streams') backlog and drain. Absent for sync runs. */
  orderWrite?: OrderWriteFigures;
  /** CPU per process while the load ran. Absent in results from before it was measured. */
  cpu?: RunCpu;
  /** The instance whose worker ran the run (a crash fault never targets it). Absent in results from before it was recorded. */
  executor?: string;
  /**
   * The first unit sold twice (or the deadlock) drawn from the orders' traced steps; absent when the run
   * had neither, when tracing was off, or when the orders fell outside the traced window.
   */
  trace?: RunTrace;
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

/** What POST /api/runs answers its creator: the run and, only here, the token its figures count by. */
export interface CreatedRunView extends RunView {
  /**
   * Unguessable; a load tool sends it as the x-run-token header. Orders and no-ops without it are still
   * served, but only requests that carry it are counted in this run's figures.
   */
  runToken: string;
}

/** What GET /api/runs/:id/events streams (server-sent events, `event:` = type). */
export type RunEvent =
  | { type: 'status'; runId: string; status: RunStatus; failure?: string | null }
  | {
      type: 'progress';
      runId: string;
      point: TimelinePoint;
      counts: OutcomeCounts;
      oversold: number;
      /** Units sold twice so far, a lower bound (unitsSoldTwiceSoFar); absent from services before it existed. */
      soldTwice?: number;
    }
  | { type: 'lock'; runId: string; events: LockEvent[] }
  | { type: 'fault'; runId: string; events: FaultEvent[] }
  | { type: 'result'; runId: string; run: RunView };

/** POST /api/runs/batch: one scenario, every strategy (and the warm-up and no-op ceiling first), queued in order. */
/** Its faults are the same in every run of the batch (not in the warm-up and the no-op ceiling). */
export interface RunBatchRequest extends ScenarioSettings {
  /** Defaults to every registered strategy. */
  strategies?: StrategyName[];
  /** Measure the no-op ceiling first, after a discarded warm-up run (ceilingWarmUp) (default true). */
  includeCeiling?: boolean;
  scenario?: string;
}

export interface RunBatchView {
  batchId: string;
  runs: CreatedRunView[];
}
