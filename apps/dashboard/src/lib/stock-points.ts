import type { TimelinePoint } from '@oversell/contracts';

/** One point of the stock chart: the stock left and the units sold at time t (seconds since the load started). */
export interface StockPoint {
  t: number;
  remaining: number;
  soldTotal: number;
}

/**
 * The stock chart's line: the initial stock with nothing sold at 0, then each second's figures at its
 * end (t + 1), which is when the timeline measured them.
 */
export function stockPoints(timeline: readonly TimelinePoint[], initialStock: number): StockPoint[] {
  return [{ t: 0, remaining: initialStock, soldTotal: 0 }, ...timeline.map((p) => ({ t: p.t + 1, remaining: p.remaining, soldTotal: p.soldTotal }))];
}
