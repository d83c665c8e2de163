import { describe, expect, it } from 'vitest';
import { axisWidth, niceTicks, numberAxis } from './axis';

describe('niceTicks', () => {
  it('ends on the lowest round number at or above the maximum', () => {
    expect(niceTicks(1426)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(1188)).toEqual([0, 250, 500, 750, 1000, 1250]);
    expect(niceTicks(1569)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(niceTicks(57.5)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(4998)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    expect(niceTicks(12_345)).toEqual([0, 2500, 5000, 7500, 10_000, 12_500]);
    expect(niceTicks(2_500_000)).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000]);
  });

  it('keeps whole steps on small axes and copes with an empty one', () => {
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(0.4)).toEqual([0, 1]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('axisWidth and numberAxis', () => {
  it('widens the axis with its longest label', () => {
    expect(axisWidth(['0', '500 ms'])).toBeGreaterThan(axisWidth(['0', '50']));
    expect(axisWidth(['12,345'])).toBeGreaterThanOrEqual(70);
    // The old fixed 64 px clipped "500 ms" in Debian's chromium.
    expect(axisWidth(['500 ms'])).toBeGreaterThan(64);
    expect(axisWidth(['1,500 ms'])).toBeGreaterThan(axisWidth(['500 ms']));
  });

  it('gives a YAxis round ticks, their formatter and the width they need', () => {
    const format = (v: number) => `${v} ms`;
    const axis = numberAxis(539, format);
    expect(axis.ticks).toEqual([0, 200, 400, 600]);
    expect(axis.domain).toEqual([0, 600]);
    expect(axis.tickFormatter).toBe(format);
    expect(axis.width).toBe(axisWidth(['600 ms']));
  });
});
