import { findExclusionViolations, type LockEvent } from '@oversell/contracts';

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

export interface LockLane {
  instance: string;
  rows: number;
  bars: LockBar[];
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
}

/** Lays holdings out as gantt lanes: one lane per instance, holdings packed into rows by time. */
export function layoutLockTimeline(
  events: readonly LockEvent[],
  maxDrawn: number = MAX_DRAWN_LOCK_EVENTS,
): LockTimelineLayout {
  // The run's reconciliation counts violations by the same rule, so red bars and its figure agree.
  const overlaps = new Set(findExclusionViolations(events).flatMap((violation) => [violation.holding, violation.heldBy]));
  const byStart = events.map((event, index) => ({ event, overlapping: overlaps.has(index) }));
  byStart.sort((a, b) => a.event.acquiredAt - b.event.acquiredAt);
  const drawn = byStart.slice(-maxDrawn);

  const lanes = new Map<string, { lane: LockLane; rowEnds: number[] }>();
  for (const { event, overlapping } of drawn) {
    let entry = lanes.get(event.instance);
    if (!entry) {
      entry = { lane: { instance: event.instance, rows: 0, bars: [] }, rowEnds: [] };
      lanes.set(event.instance, entry);
    }
    // First row free by the time this holding starts; a new row if none is, up to the cap.
    let row = entry.rowEnds.findIndex((end) => end <= event.acquiredAt);
    if (row === -1) row = Math.min(entry.rowEnds.length, MAX_ROWS_PER_LANE - 1);
    entry.rowEnds[row] = Math.max(entry.rowEnds[row] ?? 0, event.releasedAt);
    entry.lane.rows = entry.rowEnds.length;
    entry.lane.bars.push({ event, row, overlapping });
  }

  return {
    lanes: [...lanes.values()].map((e) => e.lane).sort((a, b) => a.instance.localeCompare(b.instance)),
    start: drawn.length ? drawn[0].event.acquiredAt : 0,
    end: drawn.reduce((max, d) => Math.max(max, d.event.releasedAt), 0),
    total: events.length,
    drawn: drawn.length,
    overlappingCount: overlaps.size,
    expiredCount: events.reduce((n, e) => n + (e.expired ? 1 : 0), 0),
  };
}
