import { faultSettingsProblems } from '@oversell/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT, toFaultSettings } from './fault-form';

describe('toFaultSettings', () => {
  it('sends only the fields the kind reads', () => {
    const typed = { ...DEFAULT_FAULT, at: 'release-checked-before-del' as const, frequency: 'every' as const, every: '3', durationMs: '400', instance: '1' };
    expect(toFaultSettings({ ...typed, kind: 'pause' })).toEqual({ kind: 'pause', at: 'release-checked-before-del', every: 3, durationMs: 400, instance: 1 });
    expect(toFaultSettings({ ...typed, kind: 'crash' })).toEqual({ kind: 'crash', at: 'release-checked-before-del', every: 3, instance: 1 });
    expect(toFaultSettings({ ...typed, kind: 'clock-offset', offsetMs: '-2000' })).toEqual({ kind: 'clock-offset', offsetMs: -2000, instance: 1 });
    expect(toFaultSettings({ ...typed, kind: 'double-click', copies: '3', idempotencyKey: false })).toEqual({ kind: 'double-click', copies: 3, idempotencyKey: false });
    // A failover fires once per run: an "every" chosen for another kind becomes once, and the rules accept it.
    const failover = toFaultSettings({ ...typed, kind: 'failover' });
    expect(failover).toEqual({ kind: 'failover', at: 'release-checked-before-del', once: true, instance: 1 });
    expect(faultSettingsProblems([failover])).toEqual([]);
  });

  it('says once or a probability as chosen, and leaves an empty instance out (every instance)', () => {
    expect(toFaultSettings({ ...DEFAULT_FAULT, kind: 'store-cut' })).toEqual({ kind: 'store-cut', at: 'lock-acquired', once: true, durationMs: 500, store: 'redis' });
    expect(toFaultSettings({ ...DEFAULT_FAULT, kind: 'store-cut', store: 'mysql' })).toMatchObject({ kind: 'store-cut', store: 'mysql' });
    expect(toFaultSettings({ ...DEFAULT_FAULT, kind: 'pause', store: 'mysql' })).not.toHaveProperty('store');
    expect(toFaultSettings({ ...DEFAULT_FAULT, frequency: 'probability', probability: '0.25' })).toMatchObject({ probability: 0.25 });
  });

  it('sends what was typed, so the shared rules catch it before sending: an empty duration is missing', () => {
    expect(faultSettingsProblems([toFaultSettings({ ...DEFAULT_FAULT, durationMs: '' })]).map((p) => p.field)).toEqual(['faults[0].durationMs']);
    expect(faultSettingsProblems([toFaultSettings(DEFAULT_FAULT)])).toEqual([]);
  });
});
