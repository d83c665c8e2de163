import type { ContendedPhase, TimelinePoint } from '@oversell/contracts';
import type * as hdr from 'hdr-histogram-js';
import { newLatencyHistogram, summarize } from './latency-histogram';

/**
 * The contended phase of a run from its per-second timeline and histograms (histogramAt(t) for the
 * timeline's t): from the first second with a request to the first second in which the units sold
 * reached the initial stock or the store's remaining reached 0, or to the last second with a request
 * when neither happened (the timeline goes on with stock samples while the run waits for its write
 * queue to drain; counting those seconds would dilute the rate). A remaining of 0 counts only once
 * something sold: before the first stock sample the timeline carries 0. Undefined when the run sent
 * no request.
 */
export function contendedPhase(points: readonly TimelinePoint[], histogramAt: (t: number) => hdr.Histogram | undefined, initialStock: number): ContendedPhase | undefined {
  const first = points.findIndex((p) => p.attempts > 0);
  if (first < 0) return undefined;
  // The sold count first: a second's remaining may come from a sample read just after it ended, and a 0
  // there can belong to the next second's sales. The store's 0 decides only when units went missing.
  const soldAll = points.findIndex((p, i) => i >= first && p.soldTotal >= initialStock);
  const sellOut = soldAll >= 0 ? soldAll : points.findIndex((p, i) => i >= first && p.remaining === 0 && p.soldTotal > 0);
  const last = sellOut >= 0 ? sellOut : lastWithRequests(points);
  const phase = points.slice(first, last + 1);
  const merged = newLatencyHistogram();
  for (const p of phase) {
    const histogram = histogramAt(p.t);
    if (histogram) merged.add(histogram);
  }
  const { p50, p99 } = summarize(merged);
  const units = points[last].soldTotal - (first > 0 ? points[first - 1].soldTotal : 0);
  const seconds = phase.length;
  return {
    soldOut: sellOut >= 0,
    durationMs: seconds * 1000,
    attempts: phase.reduce((sum, p) => sum + p.attempts, 0),
    units,
    unitsPerSec: Math.round((units / seconds) * 10) / 10,
    p50,
    p99,
  };
}

function lastWithRequests(points: readonly TimelinePoint[]): number {
  let i = points.length - 1;
  while (i > 0 && points[i].attempts === 0) i--;
  return i;
}
