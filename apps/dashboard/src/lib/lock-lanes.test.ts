import { CLOCK_TOLERANCE_MS } from '@oversell/contracts';
import { describe, expect, it } from 'vitest';
import { faultEvent, lockEvent } from '../test/fixtures';
import { layoutLockTimeline, MAX_ROWS_PER_LANE } from './lock-lanes';

describe('layoutLockTimeline', () => {
  it('gives each instance a lane and stacks its concurrent holdings into rows', () => {
    const layout = layoutLockTimeline([
      lockEvent({ instance: 'order-2', requestId: 'a', acquiredAt: 0, releasedAt: 10 }),
      lockEvent({ instance: 'order-1', requestId: 'b', lockKey: 'k1', acquiredAt: 0, releasedAt: 10 }),
      lockEvent({ instance: 'order-1', requestId: 'c', lockKey: 'k2', acquiredAt: 5, releasedAt: 15 }),
      lockEvent({ instance: 'order-1', requestId: 'd', lockKey: 'k1', acquiredAt: 12, releasedAt: 20 }),
    ]);
    expect(layout.lanes.map((l) => l.instance)).toEqual(['order-1', 'order-2']);
    const rows = Object.fromEntries(layout.lanes[0].bars.map((b) => [b.event.requestId, b.row]));
    expect(rows).toEqual({ b: 0, c: 1, d: 0 });
    expect(layout.lanes[0].rows).toBe(2);
    expect(layout.start).toBe(0);
    expect(layout.end).toBe(20);
  });

  it('draws only the latest holdings but counts overlaps and expiries over all of them', () => {
    const events = [
      lockEvent({ requestId: 'old-a', acquiredAt: 0, releasedAt: 50, expired: true }),
      lockEvent({ requestId: 'old-b', acquiredAt: 10, releasedAt: 20 }),
      ...Array.from({ length: 5 }, (_, i) => lockEvent({ requestId: `new-${i}`, acquiredAt: 100 + i * 10, releasedAt: 105 + i * 10 })),
    ];
    const layout = layoutLockTimeline(events, [], 3);
    expect(layout.drawn).toBe(3);
    expect(layout.total).toBe(7);
    expect(layout.lanes[0].bars.map((b) => b.event.requestId)).toEqual(['new-2', 'new-3', 'new-4']);
    expect(layout.overlappingCount).toBe(2);
    expect(layout.expiredCount).toBe(1);
  });

  it('draws red only what the run\'s reconciliation counts as a violation: not a grant within the clock tolerance of a release, nor a holding over the instant another began', () => {
    const layout = layoutLockTimeline([
      lockEvent({ instance: 'order-1', requestId: 'a', acquiredAt: 0, releasedAt: 10 }),
      lockEvent({ instance: 'order-2', requestId: 'b', acquiredAt: 10 - CLOCK_TOLERANCE_MS / 2, releasedAt: 20 }),
      lockEvent({ instance: 'order-1', requestId: 'c', acquiredAt: 20, releasedAt: 30 }),
      // Granted and released the instant c was granted: over before c began.
      lockEvent({ instance: 'order-2', requestId: 'd', acquiredAt: 20, releasedAt: 20 }),
    ]);
    expect(layout.overlappingCount).toBe(0);
    expect(layout.lanes.flatMap((lane) => lane.bars).filter((bar) => bar.overlapping)).toEqual([]);
  });

  it('caps the rows of a lane so a pile-up does not grow it without bound', () => {
    const events = Array.from({ length: MAX_ROWS_PER_LANE + 3 }, (_, i) =>
      lockEvent({ requestId: `r${i}`, acquiredAt: i, releasedAt: 1000 }),
    );
    const layout = layoutLockTimeline(events);
    expect(layout.lanes[0].rows).toBe(MAX_ROWS_PER_LANE);
    expect(layout.lanes[0].bars.every((b) => b.overlapping)).toBe(true);
  });

  it('marks each fault on the lane of its instance: a crash as a cross, a pause as a span, a clock offset as a note', () => {
    const layout = layoutLockTimeline(
      [lockEvent({ instance: 'order-1', acquiredAt: 100, releasedAt: 200 })],
      [
        faultEvent({ kind: 'pause', instance: 'order-1', startedAt: 150, endedAt: 450 }),
        faultEvent({ kind: 'crash', instance: 'order-2', startedAt: 120, endedAt: null }),
        faultEvent({ kind: 'clock-offset', at: null, requestId: null, instance: 'order-2', startedAt: 50, endedAt: null }),
      ],
    );
    expect(layout.lanes.map((l) => [l.instance, l.bars.length, l.marks.map((m) => m.shape)])).toEqual([
      ['order-1', 1, ['span']],
      ['order-2', 0, ['cross', 'note']],
    ]);
    // The axis reaches from the earliest fault to the pause's end, past the last release.
    expect([layout.start, layout.end]).toEqual([50, 450]);
    expect(layout.lanes[0].marks[0]).toMatchObject({ from: 150, to: 450 });
    expect(layout.faultCount).toBe(3);
  });

  it('runs a span still going on (no end yet, live) to the end of the axis', () => {
    const layout = layoutLockTimeline(
      [lockEvent({ acquiredAt: 100, releasedAt: 300 })],
      [faultEvent({ kind: 'store-cut', startedAt: 200, endedAt: null })],
    );
    expect(layout.lanes[0].marks[0]).toMatchObject({ shape: 'span', from: 200, to: 300 });
  });
});
