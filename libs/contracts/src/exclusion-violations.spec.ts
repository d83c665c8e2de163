import { CLOCK_TOLERANCE_MS, findExclusionViolations } from './exclusion-violations';
import type { LockEvent } from './runs';

const holding = (lockKey: string, acquiredAt: number, releasedAt: number): LockEvent => ({
  lockKey,
  instance: 'i1',
  requestId: `${lockKey}-${acquiredAt}-${releasedAt}`,
  requestedAt: acquiredAt,
  acquiredAt,
  releasedAt,
  expired: false,
});

describe('findExclusionViolations', () => {
  it('finds none in back-to-back holdings, even when one is granted the instant another is released', () => {
    expect(findExclusionViolations([holding('a', 0, 10), holding('a', 10, 20), holding('a', 25, 30)])).toEqual([]);
  });

  it('allows for the processes\' clock disagreement, no more', () => {
    expect(findExclusionViolations([holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS / 2, 20)])).toEqual([]);
    expect(findExclusionViolations([holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS, 20)])).toEqual([]);
    expect(findExclusionViolations([holding('a', 0, 10), holding('a', 10 - CLOCK_TOLERANCE_MS * 2, 20)])).toEqual([{ holding: 1, heldBy: 0 }]);
  });

  it('does not mistake a holding that began and ended at the instant another began for an overlap', () => {
    expect(findExclusionViolations([holding('a', 5, 9), holding('a', 5, 5)])).toEqual([]);
  });

  it('names each holding granted while an earlier one was held, and the holder it was granted inside', () => {
    // 5 starts inside [0,10); 8 and 12 start inside [5,15), the holding released last by then.
    expect(findExclusionViolations([holding('a', 0, 10), holding('a', 5, 15), holding('a', 8, 9), holding('a', 12, 13)])).toEqual([
      { holding: 1, heldBy: 0 },
      { holding: 2, heldBy: 1 },
      { holding: 3, heldBy: 1 },
    ]);
  });

  it('catches holdings nested inside a long one, not the one granted after it, whatever the input order', () => {
    const events = [holding('a', 100, 110), holding('a', 20, 30), holding('a', 0, 90), holding('a', 40, 45)];
    expect(findExclusionViolations(events)).toEqual([
      { holding: 1, heldBy: 2 },
      { holding: 3, heldBy: 2 },
    ]);
  });

  it('keeps lock keys apart: segments held at the same time are not a violation', () => {
    expect(findExclusionViolations([holding('seg:0', 0, 10), holding('seg:1', 2, 8), holding('seg:0', 10, 12)])).toEqual([]);
    expect(findExclusionViolations([holding('seg:0', 0, 10), holding('seg:1', 2, 8), holding('seg:0', 5, 12)])).toEqual([{ holding: 2, heldBy: 0 }]);
  });
});
