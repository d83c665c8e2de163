import type { RunView, TimelinePoint } from '@oversell/contracts';

/**
 * One point of the stock chart at time t (seconds since the load started). `remaining` is null where
 * the store was not read; `finalRemaining` is only on the last point of a finished run: the store as
 * the reconciliation read it at the end.
 */
export interface StockPoint {
  t: number;
  remaining: number | null;
  soldTotal: number;
  finalRemaining?: number;
}

/** What a finished run says about the time after its load: when the load ended, and what the store held at the end. */
export interface StockDrain {
  loadEndSec: number;
  finalRemaining: number;
}

export function stockDrain(run: RunView): StockDrain | undefined {
  const result = run.result;
  return result ? { loadEndSec: result.durationSec, finalRemaining: result.reconciliation.remaining } : undefined;
}

/**
 * The stock chart's lines: the initial stock with nothing sold at 0, then each second's figures at its
 * end (t + 1), which is when the timeline measured them.
 *
 * After the load the instances still answer the orders that were waiting and flush their counters, so
 * the sold total goes on rising; but the store is read only during the load and once just after it (the
 * service's samples count for the end of a second only within a second of it), so the timeline carries
 * that last reading forward as a flat, stale `remaining`. Those carried values are dropped (null: no
 * line) rather than drawn as a plateau, and the reconciliation's reading of the store, the only one
 * after the drain, is the last point. The chart shades the drain so the gap reads as "not read".
 */
export function stockPoints(timeline: readonly TimelinePoint[], initialStock: number, drain?: StockDrain): StockPoint[] {
  const points: StockPoint[] = [
    { t: 0, remaining: initialStock, soldTotal: 0 },
    ...timeline.map((p) => ({
      t: p.t + 1,
      remaining: drain && p.t + 1 > drain.loadEndSec + 1 ? null : p.remaining,
      soldTotal: p.soldTotal,
    })),
  ];
  if (drain) {
    const last = points[points.length - 1];
    last.finalRemaining = drain.finalRemaining;
  }
  return points;
}
