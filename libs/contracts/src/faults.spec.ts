import { FAULT_LIMITS, faultSettingsProblems } from './faults';

const fields = (faults: unknown) => faultSettingsProblems(faults).map((p) => p.field);

describe('faultSettingsProblems', () => {
  it('accepts no faults and one fault of each kind set as its kind reads it', () => {
    expect(faultSettingsProblems(undefined)).toEqual([]);
    expect(
      faultSettingsProblems([
        { kind: 'crash', at: 'lock-set-before-expire', once: true, instance: 0 },
        { kind: 'pause', at: 'release-checked-before-del', every: 3, durationMs: 200 },
        { kind: 'stop-the-world', at: 'lock-acquired', probability: 0.5, durationMs: 1500 },
        { kind: 'store-cut', at: 'stock-read', durationMs: 1000 },
        { kind: 'clock-offset', offsetMs: -5000, instance: 1 },
        { kind: 'double-click', copies: 3, idempotencyKey: false },
        { kind: 'failover', at: 'lock-acquired', once: true },
        { kind: 'node-restart', at: 'lock-acquired', once: true },
      ]),
    ).toEqual([]);
    // One more kind than a run's faults may number.
    expect(faultSettingsProblems([{ kind: 'clock-jump', at: 'lock-acquired', offsetMs: 60_000 }])).toEqual([]);
  });

  it('names the fault point a fault at a point lacks, and one given to a fault that has none', () => {
    expect(fields([{ kind: 'crash' }])).toEqual(['faults[0].at']);
    expect(fields([{ kind: 'pause', at: 'nowhere', durationMs: 5 }])).toEqual(['faults[0].at']);
    expect(fields([{ kind: 'clock-offset', offsetMs: 10, instance: 1, at: 'lock-acquired' }])).toEqual(['faults[0].at']);
  });

  it('refuses more than one way of saying how often, and out-of-range counts and probabilities', () => {
    expect(fields([{ kind: 'crash', at: 'stock-read', once: true, every: 2 }])).toEqual(['faults[0].once']);
    expect(fields([{ kind: 'crash', at: 'stock-read', every: 0 }])).toEqual(['faults[0].every']);
    expect(fields([{ kind: 'crash', at: 'stock-read', every: 1.5 }])).toEqual(['faults[0].every']);
    expect(fields([{ kind: 'crash', at: 'stock-read', probability: 0 }])).toEqual(['faults[0].probability']);
    expect(fields([{ kind: 'crash', at: 'stock-read', probability: 1.01 }])).toEqual(['faults[0].probability']);
  });

  it('asks a fault that lasts for its duration within the limit, and refuses one to a fault that does not last', () => {
    expect(fields([{ kind: 'pause', at: 'stock-read' }])).toEqual(['faults[0].durationMs']);
    expect(fields([{ kind: 'store-cut', at: 'stock-read', durationMs: FAULT_LIMITS.maxDurationMs + 1 }])).toEqual(['faults[0].durationMs']);
    expect(fields([{ kind: 'crash', at: 'stock-read', durationMs: 100 }])).toEqual(['faults[0].durationMs']);
  });

  it('asks clock-offset for a non-zero offset within the limit, double-click for 2 … maxCopies copies', () => {
    expect(fields([{ kind: 'clock-offset', offsetMs: 0, instance: 1 }])).toEqual(['faults[0].offsetMs']);
    expect(fields([{ kind: 'clock-offset', offsetMs: 10 }])).toEqual(['faults[0].instance']);
    expect(fields([{ kind: 'clock-offset', offsetMs: -(FAULT_LIMITS.maxClockOffsetMs + 1), instance: 0 }])).toEqual(['faults[0].offsetMs']);
    expect(fields([{ kind: 'double-click', copies: 1 }])).toEqual(['faults[0].copies']);
    expect(fields([{ kind: 'double-click', copies: FAULT_LIMITS.maxCopies + 1 }])).toEqual(['faults[0].copies']);
    expect(fields([{ kind: 'double-click', instance: 0 }])).toEqual(['faults[0].instance']);
  });

  it.each([
    ['failover', {}],
    ['node-restart', {}],
    ['clock-jump', { offsetMs: 1000 }],
  ])('fires a %s once per run, at a point: every and probability are refused, and a duration', (kind, more) => {
    expect(fields([{ kind, at: 'lock-acquired', ...more }])).toEqual([]);
    expect(fields([{ kind, ...more }])).toEqual(['faults[0].at']);
    expect(fields([{ kind, at: 'lock-acquired', every: 2, ...more }])).toEqual(['faults[0].every']);
    expect(fields([{ kind, at: 'lock-acquired', probability: 0.5, ...more }])).toEqual(['faults[0].probability']);
    expect(fields([{ kind, at: 'lock-acquired', durationMs: 100, ...more }])).toEqual(['faults[0].durationMs']);
  });

  it('asks a clock jump for a forward step within the limit, and refuses an offset to a node restart', () => {
    expect(fields([{ kind: 'clock-jump', at: 'lock-acquired' }])).toEqual(['faults[0].offsetMs']);
    expect(fields([{ kind: 'clock-jump', at: 'lock-acquired', offsetMs: -1000 }])).toEqual(['faults[0].offsetMs']);
    expect(fields([{ kind: 'clock-jump', at: 'lock-acquired', offsetMs: FAULT_LIMITS.maxClockOffsetMs + 1 }])).toEqual(['faults[0].offsetMs']);
    expect(fields([{ kind: 'node-restart', at: 'lock-acquired', offsetMs: 1000 }])).toEqual(['faults[0].offsetMs']);
  });

  it('takes a store for a store-cut only, redis or mysql', () => {
    expect(fields([{ kind: 'store-cut', at: 'stock-read', durationMs: 100, store: 'mysql' }, { kind: 'store-cut', at: 'stock-read', durationMs: 100, store: 'redis' }])).toEqual([]);
    expect(fields([{ kind: 'store-cut', at: 'stock-read', durationMs: 100, store: 'postgres' }])).toEqual(['faults[0].store']);
    expect(fields([{ kind: 'pause', at: 'stock-read', durationMs: 100, store: 'mysql' }])).toEqual(['faults[0].store']);
  });

  it('refuses an unknown kind, a negative instance, a non-list and too many faults, naming the field', () => {
    expect(fields([{ kind: 'meteor' }])).toEqual(['faults[0].kind']);
    expect(fields([{ kind: 'clock-offset', offsetMs: 5, instance: 0 }, { kind: 'crash', at: 'stock-read', instance: -1 }])).toEqual(['faults[1].instance']);
    expect(fields([{ kind: 'crash', at: 'stock-read', once: false }])).toEqual(['faults[0].once']);
    expect(fields([{ kind: 'crash', at: 'stock-read', instanceId: 'order-1' }])).toEqual(['faults[0].instanceId']);
    expect(fields([{ kind: 'crash', at: 'stock-read', sparedInstanceId: 'order-1' }])).toEqual(['faults[0].sparedInstanceId']);
    expect(fields({ kind: 'crash' })).toEqual(['faults']);
    expect(fields(['crash'])).toEqual(['faults[0]']);
    expect(fields(Array.from({ length: FAULT_LIMITS.maxFaultsPerRun + 1 }, () => ({ kind: 'clock-offset', offsetMs: 1, instance: 0 })))).toEqual(['faults']);
  });

  it('writes every problem in English and Chinese at its source, naming the same field and limit in both', () => {
    expect(faultSettingsProblems([{ kind: 'pause', at: 'stock-read' }])).toEqual([
      { field: 'faults[0].durationMs', message: { en: `a pause fault needs durationMs, a whole number from 1 to ${FAULT_LIMITS.maxDurationMs}`, 'zh-CN': `pause 故障需要 durationMs，取 1 到 ${FAULT_LIMITS.maxDurationMs} 之间的整数` } },
    ]);
    const bad = [
      { kind: 'meteor' },
      { kind: 'crash', at: 'nowhere', once: false, every: 0, probability: 2, durationMs: 5, instance: -1, instanceId: 'x', sparedInstanceId: 'y' },
      { kind: 'clock-offset', offsetMs: 0 },
      { kind: 'clock-jump', at: 'lock-acquired' },
      { kind: 'store-cut', durationMs: 0, store: 'postgres' },
      { kind: 'double-click', copies: 1, idempotencyKey: 'yes' },
      'crash',
    ];
    const problems = [...faultSettingsProblems(bad), ...faultSettingsProblems({}), ...faultSettingsProblems(bad.concat(bad))];
    expect(problems.length).toBeGreaterThan(15);
    for (const { field, message } of problems) {
      const name = field.replace(/^faults\[\d+\]\.?/, '') || 'fault';
      expect(message.en).toMatch(/^[ -~]+$/);
      expect(message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
      if (name !== 'fault' && name !== 'faults') expect(message['zh-CN']).toContain(name);
    }
  });
});
