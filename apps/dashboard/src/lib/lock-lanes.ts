import { FAULTS_WITH_DURATION, findExclusionViolations, type FaultEvent, type LockEvent } from '@oversell/contracts';

/**
 * Holdings drawn at most. SVG with tens of thousands of rects makes the page sluggish; the latest
 * holdings are the ones a presenter is looking at.
 */
export const MAX_DRAWN_LOCK_EVENTS = 2000;
/** Concurrent holdings stacked within one instance's lane before further ones share the last row. */
export const MAX_ROWS_PER_LANE = 6;

export interface LockBar {
  event: LockEvent;
  /** Row within the instance's lane; concurrent holdings on one instance get separate rows. */
  row: number;
  /** Granted inside a holding of the same lock key by anyone, or had one granted inside it (a mutual-exclusion violation). */
  overlapping: boolean;
}

/**
 * How an injected fault is drawn on its instance's lane: a crash as a cross at its moment, a fault that
 * lasts (pause, stop-the-world, store-cut) as a shaded span from its start to its end, the others
 * (clock-offset, double-click) as a note at their moment.
 */
export type FaultMarkShape = 'cross' | 'span' | 'note';

export interface FaultMark {
  fault: FaultEvent;
  shape: FaultMarkShape;
  /** Epoch ms: where the mark begins and (for a span) ends; a span still going on ends at the axis' end. */
  from: number;
  to: number;
}

export function faultMarkShape(fault: FaultEvent): FaultMarkShape {
  if (fault.kind === 'crash') return 'cross';
  return FAULTS_WITH_DURATION.includes(fault.kind) ? 'span' : 'note';
}

export interface LockLane {
  instance: string;
  rows: number;
  bars: LockBar[];
  marks: FaultMark[];
}

export interface LockTimelineLayout {
  lanes: LockLane[];
  /** Epoch ms of the first drawn acquisition and the last drawn release: the time axis. */
  start: number;
  end: number;
  total: number;
  drawn: number;
  /** Holdings on either side of a violation, over every holding, not only the drawn ones. */
  overlappingCount: number;
  expiredCount: number;
  faultCount: number;
}

/**
 * Lays holdings out as gantt lanes: one lane per instance, holdings packed into rows by time, and each
 * injected fault marked on the lane of the instance it hit (a lane of its own if that instance held nothing).
 */
export function layoutLockTimeline(
  events: readonly LockEvent[],
  faults: readonly FaultEvent[] = [],
  maxDrawn: number = MAX_DRAWN_LOCK_EVENTS,
): LockTimelineLayout {
  // The run's reconciliation counts violations by the same rule, so red bars and its figure agree.
  const overlaps = new Set(findExclusionViolations(events).flatMap((violation) => [violation.holding, violation.heldBy]));
  const byStart = events.map((event, index) => ({ event, overlapping: overlaps.has(index) }));
  byStart.sort((a, b) => a.event.acquiredAt - b.event.acquiredAt);
  const drawn = byStart.slice(-maxDrawn);

  const lanes = new Map<string, { lane: LockLane; rowEnds: number[] }>();
  const laneOf = (instance: string) => {
    let entry = lanes.get(instance);
    if (!entry) {
      entry = { lane: { instance, rows: 0, bars: [], marks: [] }, rowEnds: [] };
      lanes.set(instance, entry);
    }
    return entry;
  };
  for (const { event, overlapping } of drawn) {
    const entry = laneOf(event.instance);
    // First row free by the time this holding starts; a new row if none is, up to the cap.
    let row = entry.rowEnds.findIndex((end) => end <= event.acquiredAt);
    if (row === -1) row = Math.min(entry.rowEnds.length, MAX_ROWS_PER_LANE - 1);
    entry.rowEnds[row] = Math.max(entry.rowEnds[row] ?? 0, event.releasedAt);
    entry.lane.rows = entry.rowEnds.length;
    entry.lane.bars.push({ event, row, overlapping });
  }

  const times = [
    ...drawn.flatMap((d) => [d.event.acquiredAt, d.event.releasedAt]),
    ...faults.flatMap((f) => (f.endedAt === null ? [f.startedAt] : [f.startedAt, f.endedAt])),
  ];
  const start = times.length ? Math.min(...times) : 0;
  const end = times.length ? Math.max(...times) : 0;
  for (const fault of faults) {
    laneOf(fault.instance).lane.marks.push({ fault, shape: faultMarkShape(fault), from: fault.startedAt, to: fault.endedAt ?? end });
  }

  return {
    lanes: [...lanes.values()].map((e) => e.lane).sort((a, b) => a.instance.localeCompare(b.instance)),
    start,
    end,
    total: events.length,
    drawn: drawn.length,
    overlappingCount: overlaps.size,
    expiredCount: events.reduce((n, e) => n + (e.expired ? 1 : 0), 0),
    faultCount: faults.length,
  };
}
