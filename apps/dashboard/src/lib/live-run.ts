import type { FaultEvent, LockEvent, OutcomeCounts, RunEvent, RunStatus, RunView, TimelinePoint } from '@oversell/contracts';
import { upsertTimelinePoint } from './timeline';

/**
 * Lock holdings kept from a live stream. A contended run can report tens of thousands; the recent ones
 * are what a presenter watches, and keeping all of them would make every update slower.
 */
export const MAX_LIVE_LOCK_EVENTS = 5000;

/** What the event stream has told us about a run that has not finished yet. */
export interface LiveRun {
  status?: RunStatus;
  failure?: string | null;
  timeline: TimelinePoint[];
  counts?: OutcomeCounts;
  oversold: number;
  /** Units sold twice so far (a lower bound; see unitsSoldTwiceSoFar). */
  soldTwice: number;
  lockEvents: LockEvent[];
  /** The faults injected so far, in the order they fired; the latest MAX_LIVE_LOCK_EVENTS, like the holdings they fall in. */
  faults: FaultEvent[];
  /** The finished run, once the stream delivers it. */
  finished?: RunView;
}

export const EMPTY_LIVE_RUN: LiveRun = { timeline: [], oversold: 0, soldTwice: 0, lockEvents: [], faults: [] };

export function applyRunEvent(state: LiveRun, event: RunEvent): LiveRun {
  switch (event.type) {
    case 'status':
      return { ...state, status: event.status, failure: event.failure ?? state.failure };
    case 'progress':
      return {
        ...state,
        status: state.status ?? 'running',
        timeline: upsertTimelinePoint(state.timeline, event.point),
        counts: event.counts,
        oversold: event.oversold,
        // A bound that only rises: a tick's count can lag the one before it by an instance's flush.
        soldTwice: Math.max(state.soldTwice, event.soldTwice ?? event.oversold),
      };
    case 'lock': {
      const lockEvents = state.lockEvents.concat(event.events);
      return { ...state, lockEvents: lockEvents.slice(-MAX_LIVE_LOCK_EVENTS) };
    }
    case 'fault':
      return { ...state, faults: state.faults.concat(event.events).slice(-MAX_LIVE_LOCK_EVENTS) };
    case 'result':
      return { ...state, status: event.run.status, failure: event.run.failure, finished: event.run };
  }
}

/** The stream has nothing more to say: the result arrived or the run failed. */
export function isStreamDone(state: LiveRun): boolean {
  return state.finished !== undefined || state.status === 'failed';
}
