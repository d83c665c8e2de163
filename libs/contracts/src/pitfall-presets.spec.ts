import { faultSettingsProblems } from './faults';
import { LOCALES } from './locale';
import { PITFALL_PRESETS, findPitfallPreset, isExpectedVerdict, pitfallRunParams, pitfallShown, pitfallVerdict, type PitfallPreset, type PitfallVerdict } from './pitfall-presets';
import type { Reconciliation, RunResult, RunView } from './runs';
import { STRATEGY_NAMES } from './strategies';

const reconciliation = (patch: Partial<Reconciliation>): Reconciliation => ({
  initialStock: 20,
  remaining: 0,
  sold: 20,
  orders: 20,
  oversold: 0,
  lost: 0,
  exclusionViolations: 0,
  storesAgree: true,
  ...patch,
});

function finished(patch: { reconciliation?: Partial<Reconciliation>; lockTimeouts?: number; conflictRetries?: number }): RunView {
  const result = {
    counts: { attempts: 100, sold: 20, sold_out: 80, lock_timeout: patch.lockTimeouts ?? 0, conflict: 0, lock_lost: 0, error: 0 },
    conflictRetries: patch.conflictRetries ?? 0,
    reconciliation: reconciliation(patch.reconciliation ?? {}),
  } as RunResult;
  return { id: 'r', status: 'completed', result } as RunView;
}

const preset = (name: string): PitfallPreset => {
  const found = findPitfallPreset(name);
  if (!found) throw new Error(`no preset ${name}`);
  return found;
};

describe('PITFALL_PRESETS', () => {
  it('has unique names, a broken side and a fix each, known strategies and faults the service accepts', () => {
    expect(new Set(PITFALL_PRESETS.map((p) => p.name)).size).toBe(PITFALL_PRESETS.length);
    for (const p of PITFALL_PRESETS) {
      expect(p.sides.map((s) => s.role)).toContain('broken');
      expect(p.sides.map((s) => s.role)).toContain('fix');
      for (const side of p.sides) {
        expect(STRATEGY_NAMES).toContain(side.strategy);
        expect(faultSettingsProblems(side.settings.faults)).toEqual([]);
      }
    }
  });

  it('says every text in English and Chinese, and tells the sides of a preset apart in each', () => {
    for (const p of PITFALL_PRESETS) {
      const texts = [p.title, p.explanation.whatHappens, p.explanation.atWhichStep, p.explanation.whyTheFixHolds, ...p.sides.map((s) => s.label)];
      for (const text of texts) for (const locale of LOCALES) expect(text[locale].trim()).not.toBe('');
      for (const locale of LOCALES) expect(new Set(p.sides.map((s) => s.label[locale])).size).toBe(p.sides.length);
      // The Chinese is written, not a copy of the English.
      expect(p.explanation.whatHappens['zh-CN']).toMatch(/\p{Script=Han}/u);
    }
  });

  it('runs both sides of a preset under the same load and the same faults (the double click differs only in the key)', () => {
    for (const p of PITFALL_PRESETS.filter((p) => p.shows !== 'duplicates')) {
      const [first, ...others] = p.sides.map((s) => s.settings);
      for (const settings of others) expect(settings).toEqual(first);
    }
    const [broken, fix] = preset('double-click').sides;
    expect(broken.settings.faults).toEqual([{ kind: 'double-click', copies: 2, idempotencyKey: false }]);
    expect(fix.settings.faults).toEqual([{ kind: 'double-click', copies: 2, idempotencyKey: true }]);
    expect(broken.settings.load).toEqual(fix.settings.load);
  });

  it('sends a side as a run of its strategy with its settings, named after the preset', () => {
    const p = preset('expiry-during-business');
    expect(pitfallRunParams(p.sides[0], p.name)).toEqual({
      strategy: 'uuid-lua',
      initialStock: 5,
      lockTtlMs: 250,
      businessDelayMs: 500,
      load: { connections: 40, durationSec: 4 },
      scenario: 'pitfall-expiry-during-business',
    });
  });
});

describe('pitfallShown', () => {
  const expiry = preset('expiry-during-business');
  const [broken, fix] = expiry.sides;

  it('oversold: shown by one unit sold twice, not by a clean run nor by a run without a result', () => {
    expect(pitfallShown(expiry, broken, finished({ reconciliation: { oversold: 1 } }))).toBe(true);
    expect(pitfallShown(expiry, fix, finished({}))).toBe(false);
    expect(pitfallShown(expiry, broken, { id: 'r', status: 'running', result: null } as RunView)).toBe(false);
  });

  it('deadlock: orders timing out on the lock while stock is left, not timeouts once sold out', () => {
    const p = preset('crash-between-setnx-and-expire');
    expect(pitfallShown(p, p.sides[0], finished({ lockTimeouts: 30, reconciliation: { remaining: 150, sold: 50 } }))).toBe(true);
    expect(pitfallShown(p, p.sides[0], finished({ lockTimeouts: 30, reconciliation: { remaining: 0 } }))).toBe(false);
    expect(pitfallShown(p, p.sides[1], finished({ lockTimeouts: 0, reconciliation: { remaining: 150 } }))).toBe(false);
  });

  it('duplicates: more orders than clicks', () => {
    const p = preset('double-click');
    const clicks = p.sides[0].settings.load.totalRequests ?? 0;
    expect(pitfallShown(p, p.sides[0], finished({ reconciliation: { orders: clicks * 2 } }))).toBe(true);
    expect(pitfallShown(p, p.sides[1], finished({ reconciliation: { orders: clicks } }))).toBe(false);
  });

  it('retry storm: more failed version checks than units sold', () => {
    const p = preset('optimistic-retry-storm');
    expect(pitfallShown(p, p.sides[0], finished({ conflictRetries: 21, reconciliation: { sold: 20 } }))).toBe(true);
    expect(pitfallShown(p, p.sides[1], finished({ conflictRetries: 0, reconciliation: { sold: 20 } }))).toBe(false);
  });

  it('hot key: orders gave up on the lock or stock was left unsold; sold out with no timeout is clean', () => {
    const p = preset('hot-key');
    const [oneLock, segmented] = p.sides;
    expect(pitfallShown(p, oneLock, finished({ reconciliation: { remaining: 15, sold: 25 } }))).toBe(true);
    expect(pitfallShown(p, oneLock, finished({ lockTimeouts: 5, reconciliation: { remaining: 0 } }))).toBe(true);
    expect(pitfallShown(p, segmented, finished({ lockTimeouts: 0, reconciliation: { remaining: 0, sold: 40 } }))).toBe(false);
  });

  it('exclusion violations: two holders at once', () => {
    const p: PitfallPreset = { ...expiry, shows: 'exclusion-violations' };
    expect(pitfallShown(p, broken, finished({ reconciliation: { exclusionViolations: 2 } }))).toBe(true);
    expect(pitfallShown(p, fix, finished({ reconciliation: { oversold: 3 } }))).toBe(false);
  });
});

describe('pitfallVerdict', () => {
  const expiry = preset('expiry-during-business');
  const [broken, fix] = expiry.sides;
  const oversold = (n: number) => finished({ reconciliation: { oversold: n } });

  it('waits for a run that is not there yet, queued or running, and says when it failed', () => {
    expect(pitfallVerdict(expiry, broken, undefined)).toBe('pending');
    expect(pitfallVerdict(expiry, broken, { id: 'r', status: 'queued', result: null } as RunView)).toBe('pending');
    expect(pitfallVerdict(expiry, broken, { id: 'r', status: 'running', result: null } as RunView)).toBe('pending');
    expect(pitfallVerdict(expiry, fix, { id: 'r', status: 'failed', result: null, failure: 'boom' } as RunView)).toBe('failed');
  });

  it('judges a completed broken side by whether it showed the pitfall, a fix by whether it stayed clean', () => {
    expect(pitfallVerdict(expiry, broken, oversold(4))).toBe('showed');
    expect(pitfallVerdict(expiry, broken, oversold(0))).toBe('missed');
    expect(pitfallVerdict(expiry, fix, oversold(0))).toBe('clean');
    expect(pitfallVerdict(expiry, fix, oversold(1))).toBe('not-clean');
  });

  it('never calls a fix that oversold clean, whatever its sign', () => {
    const p = preset('hot-key');
    expect(pitfallVerdict(p, p.sides[1], finished({ reconciliation: { remaining: 0, oversold: 0 } }))).toBe('clean');
    expect(pitfallVerdict(p, p.sides[1], finished({ reconciliation: { remaining: 0, oversold: 1 } }))).toBe('not-clean');
    // The broken side is judged by its own sign only: a hot key that also oversold still showed the hot key.
    expect(pitfallVerdict(p, p.sides[0], finished({ reconciliation: { remaining: 0, oversold: 1 } }))).toBe('missed');
  });

  it('never calls a fix clean that sold a unit twice before sell-out, nor one only overlapping', () => {
    // uuid-lua with lease 100 ms and business 250 ms: 43 units sold twice, stock left (not sold out).
    const soldTwice = finished({ reconciliation: { initialStock: 100, sold: 66, remaining: 77, oversold: 0, lostUpdates: 43 } });
    expect(pitfallVerdict(expiry, fix, soldTwice)).toBe('not-clean');
    const overlapOnly = finished({ reconciliation: { exclusionViolations: 1, oversold: 0, lostUpdates: 0 } });
    expect(pitfallVerdict(expiry, fix, overlapOnly)).toBe('clean');
    // The broken side keeps its own sign: oversold, not sold twice.
    expect(pitfallVerdict(expiry, broken, soldTwice)).toBe('missed');
    expect(pitfallShown({ ...expiry, shows: 'sold-twice' }, broken, soldTwice)).toBe(true);
  });

  it('expects the broken side to show and the fix to stay clean, nothing else', () => {
    const all: PitfallVerdict[] = ['pending', 'failed', 'showed', 'missed', 'clean', 'not-clean'];
    expect(all.filter(isExpectedVerdict)).toEqual(['showed', 'clean']);
  });
});
