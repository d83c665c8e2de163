import type { ContendedPhase, TimelinePoint } from '@oversell/contracts';
import type * as hdr from 'hdr-histogram-js';
import { newShortLivedHistogram, summarize } from './latency-histogram';
import type { RunMoments } from './run-figures.reader';

/**
 * The contended phase of a run from its per-second timeline and histograms (histogramAt(t) for the
 * timeline's t): from the first second with a request to the first second in which the units sold
 * reached the initial stock or the store's remaining reached 0, or to the last second with a request
 * when neither happened (the timeline goes on with stock samples while the run waits for its write
 * queue to drain; counting those seconds would dilute the rate). A remaining of 0 counts only once
 * something sold: before the first stock sample the timeline carries 0. Undefined when the run sent
 * no request.
 *
 * Its duration comes from the run's moments (epoch ms, `startSecond` the timeline's t = 0) where they
 * are known: from the first request's arrival to the last sale when the run sold out, or to the last
 * answer when it did not. A sale over in two seconds is not three whole seconds. When more than the
 * stock sold, which sale emptied it is not known: the phase then ends with the sell-out second, or the
 * last sale if that came first. The attempts and percentiles are those of the phase's whole seconds.
 */
export function contendedPhase(
  points: readonly TimelinePoint[],
  histogramAt: (t: number) => hdr.Histogram | undefined,
  initialStock: number,
  moments?: RunMoments & { startSecond: number },
): ContendedPhase | undefined {
  const first = points.findIndex((p) => p.attempts > 0);
  if (first < 0) return undefined;
  // The sold count first: a second's remaining may come from a sample read just after it ended, and a 0
  // there can belong to the next second's sales. The store's 0 decides only when units went missing.
  const soldAll = points.findIndex((p, i) => i >= first && p.soldTotal >= initialStock);
  const sellOut = soldAll >= 0 ? soldAll : points.findIndex((p, i) => i >= first && p.remaining === 0 && p.soldTotal > 0);
  const last = sellOut >= 0 ? sellOut : lastWithRequests(points);
  const phase = points.slice(first, last + 1);
  const merged = newShortLivedHistogram();
  for (const p of phase) {
    const histogram = histogramAt(p.t);
    if (histogram) merged.add(histogram);
  }
  const { p50, p99 } = summarize(merged);
  const units = points[last].soldTotal - (first > 0 ? points[first - 1].soldTotal : 0);
  const durationMs = phaseMs(points, { first, last, soldOut: sellOut >= 0, oversold: points[points.length - 1].soldTotal > initialStock }, moments);
  return {
    soldOut: sellOut >= 0,
    durationMs,
    attempts: phase.reduce((sum, p) => sum + p.attempts, 0),
    units,
    unitsPerSec: Math.round((units / (durationMs / 1000)) * 10) / 10,
    p50,
    p99,
  };
}

function phaseMs(
  points: readonly TimelinePoint[],
  { first, last, soldOut, oversold }: { first: number; last: number; soldOut: boolean; oversold: boolean },
  moments: (RunMoments & { startSecond: number }) | undefined,
): number {
  const wholeSeconds = (last - first + 1) * 1000;
  const start = moments?.firstRequestAt;
  if (!moments || start === undefined) return wholeSeconds;
  const endOfLast = (moments.startSecond + points[last].t + 1) * 1000;
  const end = soldOut ? (oversold ? Math.min(endOfLast, moments.lastSaleAt ?? endOfLast) : moments.lastSaleAt) : moments.lastAnswerAt;
  if (end === undefined) return wholeSeconds;
  // At least 1 ms: a phase of one order answered within the clock's tick.
  return Math.max(1, Math.round(end - start));
}

function lastWithRequests(points: readonly TimelinePoint[]): number {
  let i = points.length - 1;
  while (i > 0 && points[i].attempts === 0) i--;
  return i;
}
