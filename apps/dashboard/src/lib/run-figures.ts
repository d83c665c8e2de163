import type { ContendedPhase, FaultEvent, LockEvent, OutcomeCounts, Reconciliation, RunStatus, RunView, StockFigures, TimelinePoint } from '@oversell/contracts';
import type { LiveRun } from './live-run';
import { laterStatus } from './run-status';

/** What the lab view draws for one run, whether it is live or finished. */
export interface RunFigures {
  status: RunStatus;
  failure: string | null;
  timeline: TimelinePoint[];
  lockEvents: LockEvent[];
  /** The faults injected, in the order they fired. */
  faults: FaultEvent[];
  /** What went wrong with the stock: live, a lower bound of the units sold twice; then the reconciliation's. */
  stock: StockFigures;
  /** Units sold and left in the store: the last second's while live, the reconciliation's once finished. */
  sold: number;
  remaining: number;
  initialStock: number;
  counts?: OutcomeCounts;
  /** Failed optimistic version checks; only in the stored result. */
  conflictRetries?: number;
  /** Only once the run has completed. */
  reconciliation?: Reconciliation;
  /** Only once the run has completed, and absent in results from before it existed. */
  contendedPhase?: ContendedPhase;
}

/** The stored result wins once there is one; until then the stream's figures are all there is. */
export function runFigures(run: RunView, live: LiveRun): RunFigures {
  const result = run.result ?? live.finished?.result ?? null;
  const status = laterStatus(run.status, live.status);
  const failure = run.failure ?? live.failure ?? null;
  if (result) {
    return {
      status,
      failure,
      timeline: result.timeline,
      lockEvents: result.lockEvents,
      // A result without the field predates faults: what the stream saw (nothing) is all there is.
      faults: result.faults ?? live.faults,
      stock: result.reconciliation,
      sold: result.reconciliation.sold,
      remaining: result.reconciliation.remaining,
      initialStock: run.params.initialStock,
      counts: result.counts,
      conflictRetries: result.conflictRetries,
      reconciliation: result.reconciliation,
      contendedPhase: result.contendedPhase,
    };
  }
  const last = live.timeline.at(-1);
  return {
    status,
    failure,
    timeline: live.timeline,
    lockEvents: live.lockEvents,
    faults: live.faults,
    stock: { oversold: live.oversold, lostUpdates: live.soldTwice },
    sold: last?.soldTotal ?? 0,
    remaining: last?.remaining ?? run.params.initialStock,
    initialStock: run.params.initialStock,
    counts: live.counts,
  };
}
