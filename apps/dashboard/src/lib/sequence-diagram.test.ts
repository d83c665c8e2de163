import { describe, expect, it } from 'vitest';
import type { SequenceStep } from '@oversell/contracts';
import { t } from '../test/i18n';
import { modelTraceName, MODEL_TRACES, loadModelTrace } from './model-traces';
import { sequenceDiagramText } from './sequence-diagram';

describe('sequence diagram text', () => {
  const run: SequenceStep[] = [
    { actor: 'A', target: 'lock', action: 'granted', value: 150 },
    { actor: 'A', target: 'stock', action: 'GET', value: 5 },
    { actor: 'A', target: 'fault', action: 'pause', note: 'stock-read' },
    { actor: 'A', target: 'expiry', action: 'lease ran out' },
    { actor: 'B', target: 'lock', action: 'granted', value: 150, note: 'fence:7' },
    { actor: 'B', target: 'stock', action: 'GET', value: 5 },
    { actor: 'B', target: 'stock', action: 'SET', value: 4 },
    { actor: 'A', target: 'stock', action: 'SET', value: 4, note: 'sold-twice' },
    { actor: 'A', target: 'lock', action: 'released', value: 'false', note: 'expired' },
  ];

  it('draws the orders with their instance, the lock and the stock as lifelines, the values in time order, the expiry and faults as notes, and the second sale highlighted', () => {
    expect(sequenceDiagramText(run, t, [{ actor: 'A', requestId: 'r1', instance: 'os-1' }, { actor: 'B', requestId: 'r2', instance: 'os-2' }])).toBe(
      [
        'sequenceDiagram',
        '  participant lock as lock key',
        '  participant stock as stock key',
        '  participant A as A<br/>on os-1',
        '  participant B as B<br/>on os-2',
        '  A->>lock: granted (lease 150 ms)',
        '  A->>stock: GET stock → 5',
        '  Note over A: fault: pause at stock-read',
        "  Note over A: A's lease runs out",
        '  B->>lock: granted (lease 150 ms, fencing token 7)',
        '  B->>stock: GET stock → 5',
        '  B->>stock: SET stock 4',
        '  rect rgb(255, 205, 210)',
        '  A->>stock: SET stock 4',
        '  Note over A,stock: the same unit sold a second time',
        '  end',
        '  A->>lock: release → false (its lease had run out)',
        '',
      ].join('\n'),
    );
  });

  it("draws the model's checked-in trace (no instances): the mis-deletion as a DEL of the other order's lock", async () => {
    const text = sequenceDiagramText((await loadModelTrace('naive-setnx.pause-stock-written'))!, t);
    expect(text).toContain('  participant A as A\n');
    expect(text).toContain("  A->>lock: DEL removes B's lock\n");
    expect(text).toContain('  rect rgb(255, 205, 210)\n  C->>stock: SET stock 0\n');
  });

  it("words a hot key's request, a watchdog's renewal and a failed version check", () => {
    const text = sequenceDiagramText(
      [
        { actor: 'A', target: 'lock', action: 'requested' },
        { actor: 'A', target: 'lock', action: 'renewed', value: 250 },
        { actor: 'B', target: 'stock', action: 'UPDATE', value: 0, note: 'version:3' },
      ],
      t,
    );
    expect(text).toContain('  A->>lock: asks for the lock\n  A->>lock: lease renewed (250 ms from now)\n  B->>stock: UPDATE … WHERE version = 3 → 0 rows\n');
  });

  it('keeps a value from ending a Mermaid statement', () => {
    expect(sequenceDiagramText([{ actor: 'A', target: 'lock', action: 'EVAL', value: 'a;b#c' }], t)).toContain('A->>lock: EVAL → a b c\n');
  });
});

describe('model traces', () => {
  it("picks the trace of the run's fault, else the lock's first, and loads every file it names", async () => {
    expect(modelTraceName('uuid-lua', ['failover'])).toBe('uuid-lua.failover-lock-acquired');
    expect(modelTraceName('uuid-lua', [])).toBe('uuid-lua.pause-stock-read');
    expect(modelTraceName('lua-decrement', [])).toBeUndefined();
    for (const name of Object.values(MODEL_TRACES).flat()) expect((await loadModelTrace(name!))?.length).toBeGreaterThan(0);
  });
  it("pairs the clock-jump and the mis-deletion runs with their own model's interleaving", async () => {
    expect(modelTraceName('redlock', ['clock-jump'])).toBe('redlock.clock-jump-lock-acquired');
    expect((await loadModelTrace('redlock.clock-jump-lock-acquired'))!.some((s) => s.target === 'fault' && s.action === 'clock-jump')).toBe(true);
    // naive-setnx's model: the first holder's DEL removes the second holder's lock.
    expect((await loadModelTrace(modelTraceName('naive-setnx', ['pause'])!))!.some((s) => s.action === 'DEL' && s.note === 'not-its-own')).toBe(true);
  });
});
