/** Step multipliers that read well on an axis: 1, 2, 2.5 and 5 times a power of ten. */
const NICE_STEPS = [1, 2, 2.5, 5];
const MIN_INTERVALS = 3;
/** More would crowd the labels of a 240 px chart. */
const MAX_INTERVALS = 5;

/**
 * Round ticks from 0 up to at least `max` (whole numbers, 3 to 5 intervals, the lowest such top):
 * [0, 500, 1000, 1500] for 1,426 rather than an axis that ends on 1,569. The last tick is the axis top.
 */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  let best: { step: number; intervals: number } | undefined;
  const lowest = Math.floor(Math.log10(max / MAX_INTERVALS));
  for (let exponent = lowest; exponent <= lowest + 2; exponent += 1) {
    for (const multiplier of NICE_STEPS) {
      const step = multiplier * 10 ** exponent;
      // Whole-unit axes (stock, requests/s) never need fractional ticks.
      if (!Number.isInteger(step) || step < 1) continue;
      const intervals = Math.max(1, Math.ceil(max / step - 1e-9));
      if (intervals > MAX_INTERVALS || (intervals < MIN_INTERVALS && step > 1)) continue;
      const better =
        !best || step * intervals < best.step * best.intervals || (step * intervals === best.step * best.intervals && intervals < best.intervals);
      if (better) best = { step, intervals };
    }
  }
  const { step, intervals } = best ?? { step: Math.ceil(max), intervals: 1 };
  return Array.from({ length: intervals + 1 }, (_, i) => i * step);
}

/**
 * Approximate advance widths at the charts' 16 px tick font, on the wide side (DejaVu Sans, the
 * fallback on Linux, is wider than most system fonts), so a label is never clipped.
 */
const CHAR_WIDTH_PX: Record<string, number> = { ',': 5.5, '.': 5.5, ' ': 5.5, m: 16, s: 8.5, '%': 15.5, '-': 7 };
const DIGIT_WIDTH_PX = 10.5;
const OTHER_WIDTH_PX = 10.5;
/** Tick mark (6 px), the gap between mark and label, and a little air on the outer edge. */
const AXIS_CHROME_PX = 16;

/** Width in pixels a y-axis needs for its longest tick label. */
export function axisWidth(labels: readonly string[]): number {
  const longest = labels.reduce((max, label) => {
    const width = [...label].reduce((sum, c) => sum + (CHAR_WIDTH_PX[c] ?? (/\d/.test(c) ? DIGIT_WIDTH_PX : OTHER_WIDTH_PX)), 0);
    return Math.max(max, width);
  }, 0);
  return Math.ceil(longest + AXIS_CHROME_PX);
}

export interface NumberAxis {
  domain: [number, number];
  ticks: number[];
  tickFormatter: (value: number) => string;
  width: number;
  /** Every tick labelled: they are few and round, so recharts need not drop any. */
  interval: 0;
}

/**
 * Props for a recharts number YAxis from 0 to at least `max`: round ticks, labels formatted by
 * `format`, and an axis wide enough for the longest label (12,345 or 1,500 ms).
 */
export function numberAxis(max: number, format: (value: number) => string): NumberAxis {
  const ticks = niceTicks(max);
  return { domain: [0, ticks[ticks.length - 1]], ticks, tickFormatter: format, width: axisWidth(ticks.map(format)), interval: 0 };
}
