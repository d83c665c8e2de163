import type { ContendedPhase, FaultEvent, LockEvent, OutcomeCounts, Reconciliation, RunStatus, RunView, TimelinePoint } from '@oversell/contracts';
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
  oversold: number;
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
      oversold: result.reconciliation.oversold,
      counts: result.counts,
      conflictRetries: result.conflictRetries,
      reconciliation: result.reconciliation,
      contendedPhase: result.contendedPhase,
    };
  }
  return { status, failure, timeline: live.timeline, lockEvents: live.lockEvents, faults: live.faults, oversold: live.oversold, counts: live.counts };
}
