import type { TimelinePoint } from '@oversell/contracts';
import type * as hdr from 'hdr-histogram-js';
import { contendedPhase } from './contended-phase';
import { decodeHistogram, encodeHistogram, newLatencyHistogram } from './latency-histogram';

/** A second's histogram as the reader gets it: recorded in µs, encoded by an instance, decoded back. */
function second(latenciesMs: number[]): hdr.Histogram {
  const histogram = newLatencyHistogram();
  for (const ms of latenciesMs) histogram.recordValue(ms * 1000);
  return decodeHistogram(encodeHistogram(histogram));
}

const point = (t: number, attempts: number, sold: number, soldTotal: number, remaining: number): TimelinePoint => ({ t, attempts, sold, soldTotal, remaining, p99: 0, lockHolders: 0 });

describe('contendedPhase', () => {
  it('runs from the first order to the second the stock ran out, with the latencies of those seconds only', () => {
    // Stock 10: nothing in t=0, 6 units in t=1, the last 4 in t=2, then only "sold out" answers.
    const points = [point(0, 0, 0, 0, 10), point(1, 50, 6, 6, 4), point(2, 40, 4, 10, 4), point(3, 900, 0, 10, 0)];
    const histograms = new Map([
      [1, second(Array(50).fill(100))],
      [2, second([...Array(39).fill(100), 400])],
      [3, second(Array(900).fill(1))],
    ]);
    const phase = contendedPhase(points, (t) => histograms.get(t), 10);
    expect(phase).toEqual({ soldOut: true, durationMs: 2000, attempts: 90, units: 10, unitsPerSec: 5, p50: expect.any(Number), p99: expect.any(Number) });
    // The fast sold-out answers of t=3 would pull both percentiles down to ~1 ms if they were counted.
    expect(phase?.p50).toBeCloseTo(100, 0);
    expect(phase?.p99).toBeCloseTo(400, 0);
  });

  it('takes the second the store reached 0 when units went missing and the sold count never reaches the stock', () => {
    const points = [point(0, 20, 3, 3, 7), point(1, 20, 4, 7, 0), point(2, 20, 0, 7, 0)];
    const phase = contendedPhase(points, () => second([5]), 10);
    expect(phase).toMatchObject({ soldOut: true, durationMs: 2000, units: 7, unitsPerSec: 3.5 });
  });

  it("ends with the second the sold count reached the stock, not one earlier whose end-of-second sample was read just after the stock ran out", () => {
    // The stock ran out early in t=1; t=0's stock was read 0.1 s into t=1, already 0.
    const points = [point(0, 30, 6, 6, 0), point(1, 30, 4, 10, 0), point(2, 30, 0, 10, 0)];
    expect(contendedPhase(points, () => second([5]), 10)).toMatchObject({ soldOut: true, durationMs: 2000, units: 10, unitsPerSec: 5 });
  });

  it('does not read the 0 the timeline carries before the first stock sample as a sell-out', () => {
    const points = [point(0, 20, 0, 0, 0), point(1, 20, 2, 2, 8), point(2, 20, 2, 4, 6)];
    expect(contendedPhase(points, () => second([5]), 10)).toMatchObject({ soldOut: false, durationMs: 3000, units: 4 });
  });

  it('covers the whole run from its first order when the stock never ran out', () => {
    const points = [point(0, 0, 0, 0, 100), point(1, 30, 3, 3, 97), point(2, 30, 3, 6, 94), point(3, 30, 3, 9, 91)];
    expect(contendedPhase(points, () => second([5]), 100)).toMatchObject({ soldOut: false, durationMs: 3000, attempts: 90, units: 9, unitsPerSec: 3 });
  });

  it('ends with the last second of load when the stock never ran out, not with the stock samples taken after it', () => {
    // The load stopped after t=2; the stock was still sampled while the run waited for its order-write queue to drain.
    const points = [point(0, 30, 3, 3, 97), point(1, 30, 3, 6, 94), point(2, 30, 3, 9, 91), point(3, 0, 0, 9, 91), point(4, 0, 0, 9, 91)];
    expect(contendedPhase(points, () => second([5]), 100)).toMatchObject({ soldOut: false, durationMs: 3000, attempts: 90, units: 9, unitsPerSec: 3 });
  });

  describe('timed by the run’s moments, to the ms', () => {
    // t = 0 is epoch second 1000: ms 1_000_000 to 1_000_999.
    const startSecond = 1000;
    const at = (t: number, ms: number) => (startSecond + t) * 1000 + ms;

    it('runs from the first arrival to the last sale: a sale over in 0.2 s across two seconds is not 2 s', () => {
      const points = [point(0, 30, 6, 6, 4), point(1, 30, 4, 10, 0), point(2, 30, 0, 10, 0)];
      const phase = contendedPhase(points, () => second([5]), 10, { startSecond, firstRequestAt: at(0, 900), lastSaleAt: at(1, 100), lastAnswerAt: at(2, 800) });
      expect(phase).toMatchObject({ soldOut: true, durationMs: 200, units: 10, unitsPerSec: 50 });
    });

    it('runs to the last answer when the stock never ran out', () => {
      const points = [point(0, 30, 3, 3, 97), point(1, 30, 3, 6, 94), point(2, 10, 1, 7, 93), point(3, 0, 0, 7, 93)];
      const phase = contendedPhase(points, () => second([5]), 100, { startSecond, firstRequestAt: at(0, 500), lastSaleAt: at(2, 100), lastAnswerAt: at(2, 250) });
      expect(phase).toMatchObject({ soldOut: false, durationMs: 1750, units: 7, unitsPerSec: 4 });
    });

    it('ends with the sell-out second when more than the stock sold: which sale emptied it is not known', () => {
      // no-lock: 10 units by the end of t=1, and sales went on to t=3.
      const points = [point(0, 30, 6, 6, 4), point(1, 30, 6, 12, 0), point(2, 30, 6, 18, 0), point(3, 30, 6, 24, 0)];
      const phase = contendedPhase(points, () => second([5]), 10, { startSecond, firstRequestAt: at(0, 500), lastSaleAt: at(3, 900), lastAnswerAt: at(3, 950) });
      expect(phase).toMatchObject({ soldOut: true, durationMs: 1500, units: 12, unitsPerSec: 8 });
    });

    it('ends at the last sale when the store emptied with units missing (the sold count never reached the stock)', () => {
      const points = [point(0, 20, 3, 3, 7), point(1, 20, 4, 7, 0), point(2, 20, 0, 7, 0)];
      const phase = contendedPhase(points, () => second([5]), 10, { startSecond, firstRequestAt: at(0, 0), lastSaleAt: at(1, 400), lastAnswerAt: at(2, 999) });
      expect(phase).toMatchObject({ soldOut: true, durationMs: 1400, units: 7, unitsPerSec: 5 });
    });
  });

  it('has no phase when no request came', () => {
    expect(contendedPhase([point(0, 0, 0, 0, 10)], () => undefined, 10)).toBeUndefined();
  });
});
