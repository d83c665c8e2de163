import { traceOfRun, type SequenceStep } from './sequence';

/** Steps as the instances note them: actor = request id, at = ms. */
const step = (actor: string, at: number, target: string, action: string, value?: number | string, note?: string): SequenceStep => ({ actor, at, target, action, instance: 'os-1', ...(value === undefined ? {} : { value }), ...(note ? { note } : {}) });

describe('traceOfRun', () => {
  it('without a moves journal (a MySQL row), finds the first stock value two orders wrote, and letters the orders by their first step', () => {
    const steps = [
      step('r2', 20, 'lock', 'granted', 100),
      step('r2', 21, 'stock', 'GET', 5),
      step('r2', 22, 'stock', 'SET', 4),
      step('r1', 0, 'lock', 'granted', 100),
      step('r1', 1, 'stock', 'GET', 5),
      step('r1', 130, 'stock', 'SET', 4),
      step('r3', 200, 'lock', 'granted', 100),
      step('r3', 201, 'stock', 'GET', 4),
      step('r3', 202, 'stock', 'SET', 3),
    ];
    const trace = traceOfRun({ steps, lockTimeouts: 0, remaining: 3 })!;
    expect(trace).toMatchObject({ kind: 'double-sale', stockLeft: 4, orders: [{ actor: 'A', requestId: 'r1' }, { actor: 'B', requestId: 'r2' }] });
    expect(trace.steps.filter((s) => s.note === 'sold-twice')).toEqual([expect.objectContaining({ actor: 'A', action: 'SET', value: 4, at: 130 })]);
  });

  it("finds no double sale where the journal names none, but a deadlock: the holder never released, the first waiters timing out on it", () => {
    const steps = [step('dead', 0, 'lock', 'granted', 0), step('dead', 1, 'stock', 'GET', 5), ...['w1', 'w2', 'w3'].map((id, i) => step(id, 100 + i, 'lock', 'timed out', 100))];
    const faults = [{ kind: 'crash' as const, at: 'stock-read' as const, instance: 'os-2', requestId: 'dead', startedAt: 2, endedAt: null }];
    const trace = traceOfRun({ steps, faults, journalSaysNone: true, lockTimeouts: 3, remaining: 5 })!;
    expect(trace.kind).toBe('deadlock');
    expect(trace.orders.map((o) => o.requestId)).toEqual(['dead', 'w1', 'w2']);
    expect(trace.steps.map((s) => `${s.actor} ${s.action}`)).toEqual(['A granted', 'A GET', 'A crash', 'B timed out', 'C timed out']);
    expect(traceOfRun({ steps, journalSaysNone: true, lockTimeouts: 3, remaining: 0 })).toBeUndefined();
    // The crashed instance's steps died with it: its crash stands for the holder.
    const waitersOnly = steps.filter((s) => s.actor !== 'dead');
    expect(traceOfRun({ steps: waitersOnly, faults, journalSaysNone: true, lockTimeouts: 3, remaining: 5 })!.steps.map((s) => `${s.actor} ${s.action}`)).toEqual(['A crash', 'B timed out', 'C timed out']);
  });
});
