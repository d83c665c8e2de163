import { describe, expect, it } from 'vitest';
import { faultEvent } from '../test/fixtures';
import { describeFault } from './fault-text';

describe('describeFault', () => {
  it('says which fault, where, on which instance, how long and in which order', () => {
    expect(describeFault(faultEvent({ kind: 'pause', startedAt: 1000, endedAt: 1300 }))).toBe(
      'pause at release-checked-before-del on order-1 for 300 ms (order r1)',
    );
  });

  it('gives a crash no duration and says the process died; a clock offset no point and no order', () => {
    expect(describeFault(faultEvent({ kind: 'crash', at: 'lock-set-before-expire', endedAt: null }))).toBe(
      'crash at lock-set-before-expire on order-1 (order r1) — the process died here',
    );
    expect(describeFault(faultEvent({ kind: 'clock-offset', at: null, requestId: null, endedAt: null }))).toBe('clock-offset on order-1');
  });
});
