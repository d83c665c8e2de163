import { describe, expect, it } from 'vitest';
import { lockEvent } from '../test/fixtures';
import { findLockOverlaps } from './lock-overlaps';

describe('findLockOverlaps', () => {
  it('finds nothing when holdings of one key follow each other', () => {
    const events = [
      lockEvent({ requestId: 'a', acquiredAt: 0, releasedAt: 10 }),
      lockEvent({ requestId: 'b', acquiredAt: 10, releasedAt: 20 }), // touches, does not overlap
      lockEvent({ requestId: 'c', acquiredAt: 25, releasedAt: 30 }),
    ];
    expect(findLockOverlaps(events)).toEqual(new Set());
  });

  it('marks both holders when a second request takes the same key before the first released it', () => {
    const events = [
      lockEvent({ requestId: 'a', acquiredAt: 0, releasedAt: 50, expired: true }),
      lockEvent({ requestId: 'b', acquiredAt: 30, releasedAt: 60 }),
      lockEvent({ requestId: 'c', acquiredAt: 70, releasedAt: 80 }),
    ];
    expect(findLockOverlaps(events)).toEqual(new Set([0, 1]));
  });

  it('ignores holdings of different keys at the same time (e.g. segments)', () => {
    const events = [
      lockEvent({ lockKey: 'seg:0', acquiredAt: 0, releasedAt: 50 }),
      lockEvent({ lockKey: 'seg:1', acquiredAt: 10, releasedAt: 40 }),
    ];
    expect(findLockOverlaps(events)).toEqual(new Set());
  });

  it('catches a short holding nested inside a long one, in any input order', () => {
    const events = [
      lockEvent({ requestId: 'late', acquiredAt: 100, releasedAt: 110 }),
      lockEvent({ requestId: 'inner', acquiredAt: 20, releasedAt: 30 }),
      lockEvent({ requestId: 'outer', acquiredAt: 0, releasedAt: 90 }),
      lockEvent({ requestId: 'also-inner', acquiredAt: 40, releasedAt: 45 }),
    ];
    expect(findLockOverlaps(events)).toEqual(new Set([1, 2, 3]));
  });
});
