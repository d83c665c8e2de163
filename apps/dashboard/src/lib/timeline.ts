import type { TimelinePoint } from '@oversell/contracts';

/**
 * Adds one per-second point to a timeline kept in time order. A point for a second already present
 * replaces it (a resent or corrected second), so the charts never show the same second twice.
 */
export function upsertTimelinePoint(points: readonly TimelinePoint[], point: TimelinePoint): TimelinePoint[] {
  const index = points.findIndex((p) => p.t >= point.t);
  if (index === -1) return [...points, point];
  const replace = points[index].t === point.t ? 1 : 0;
  return [...points.slice(0, index), point, ...points.slice(index + replace)];
}

/** One chart row per second: what the throughput and latency chart plots. */
export interface TimelineRow {
  t: number;
  /** Requests answered during this second. */
  requestsPerSec: number;
  p99: number;
}

export function toTimelineRows(points: readonly TimelinePoint[]): TimelineRow[] {
  return points.map((p) => ({
    t: p.t,
    requestsPerSec: p.attempts,
    p99: p.p99,
  }));
}
