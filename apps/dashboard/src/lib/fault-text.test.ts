import { describe, expect, it } from 'vitest';
import { faultEvent } from '../test/fixtures';
import { t } from '../test/i18n';
import { describeFault } from './fault-text';

describe('describeFault', () => {
  it('says which fault, where, on which instance, how long and in which order', () => {
    expect(describeFault(faultEvent({ kind: 'pause', startedAt: 1000, endedAt: 1300 }), t)).toBe(
      'pause at release-checked-before-del on order-1 for 300 ms (order r1)',
    );
  });

  it('gives a crash no duration and says the process died; a clock offset no point and no order', () => {
    expect(describeFault(faultEvent({ kind: 'crash', at: 'lock-set-before-expire', endedAt: null }), t)).toBe(
      'crash at lock-set-before-expire on order-1 (order r1) — the process died here',
    );
    expect(describeFault(faultEvent({ kind: 'clock-offset', at: null, requestId: null, endedAt: null }), t)).toBe('clock-offset on order-1');
  });

  it('says what a double click sent: how many clicks, how many copies each, with or without the key', () => {
    const click = { kind: 'double-click', at: null, instance: 'order-2', requestId: null, startedAt: 1000, endedAt: 4000 } as const;
    expect(describeFault(faultEvent({ ...click, doubleClick: { clicks: 30, copies: 3, idempotencyKey: false } }), t)).toBe(
      'double-click on order-2 for 3000 ms — 30 clicks, each sent 3 times at once without an idempotency key',
    );
    expect(describeFault(faultEvent({ ...click, doubleClick: { clicks: 12, copies: 2, idempotencyKey: true } }), t)).toContain('12 clicks, each sent 2 times at once with one idempotency key');
  });

  it('names the store a store-cut cut off', () => {
    expect(describeFault(faultEvent({ kind: 'store-cut', at: 'stock-read', store: 'mysql', requestId: null, startedAt: 1000, endedAt: 3000 }), t)).toBe(
      'store-cut of mysql at stock-read on order-1 for 2000 ms',
    );
  });
});
