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

  it('draws the orders a lease that ran out let in, cut after the second sale but for what the holders then did until they let go', () => {
    // A's lease runs out under it, B gets in; B's too, C gets in: all three read 100. X held the lock before
    // A, D and E after: their holdings overlap the sellers' spans and explain nothing.
    const holding = (id: string, at: number, read: number, leaseRanOut = true) => [
      step(id, at, 'lock', 'granted', 100),
      step(id, at + 1, 'stock', 'GET', read),
      ...(leaseRanOut ? [step(id, at + 100, 'expiry', 'lease ran out')] : []),
      step(id, at + 250, 'stock', 'SET', read - 1),
      step(id, at + 251, 'orders', 'INSERT'),
      step(id, at + 252, 'lock', 'released', 'false', 'expired'),
    ];
    const steps = [...holding('x', -150, 101), ...holding('a', 0, 100), ...holding('b', 100, 100), ...holding('c', 200, 100), ...holding('d', 300, 98, false), ...holding('e', 560, 97, false)];
    const trace = traceOfRun({ steps, sameRead: { stockLeft: 99, requestIds: ['a', 'b', 'c'] }, lockTimeouts: 0, remaining: 60 })!;
    expect(trace.orders.map((o) => o.requestId)).toEqual(['a', 'b', 'c']);
    expect(trace.steps.map((s) => `${s.actor} ${s.action}${s.value === undefined ? '' : ` ${s.value}`}${s.note ? ` (${s.note})` : ''}`)).toEqual([
      'A granted 100',
      'A GET 100',
      'A lease ran out',
      'B granted 100',
      'B GET 100',
      'B lease ran out',
      'C granted 100',
      'C GET 100',
      'A SET 99',
      'A released false (expired)',
      'C lease ran out',
      'B SET 99 (sold-twice)',
      // Then B and C, still holding, until they let go: C's third sale from the same read; not A (it let go), nor D's read of 98.
      'B released false (expired)',
      'C SET 99',
      'C released false (expired)',
    ]);
  });

  it("draws the holder whose late DEL removed a seller's lock, with the fault that held it up, and none of the orders after", () => {
    const steps = [
      step('a', 0, 'lock', 'granted', 1200),
      step('a', 1, 'stock', 'GET', 5),
      step('a', 600, 'stock', 'SET', 4),
      step('a', 1200, 'expiry', 'lease ran out'),
      step('a', 1500, 'lock', 'released', 'unknown', 'expired'),
      step('b', 1200, 'lock', 'granted', 1200),
      step('b', 1201, 'stock', 'GET', 4),
      step('b', 1800, 'stock', 'SET', 3),
      step('b', 1850, 'lock', 'released', 'unknown'),
      step('c', 1501, 'lock', 'granted', 1200),
      step('c', 1502, 'stock', 'GET', 4),
      step('c', 2100, 'stock', 'SET', 3),
      step('c', 2150, 'lock', 'released', 'unknown'),
      // D gets in when B's DEL removes C's lock, and reads B's write: another story, after this one.
      step('d', 1851, 'lock', 'granted', 1200),
      step('d', 1852, 'stock', 'GET', 3),
      step('d', 2450, 'stock', 'SET', 2),
    ];
    const faults = [{ kind: 'pause' as const, at: 'stock-written' as const, instance: 'os-1', requestId: 'a', startedAt: 601, endedAt: 1499 }];
    const trace = traceOfRun({ steps, faults, sameRead: { stockLeft: 3, requestIds: ['b', 'c'] }, lockTimeouts: 0, remaining: 0 })!;
    expect(trace.orders.map((o) => `${o.actor} ${o.requestId}`)).toEqual(['A a', 'B b', 'C c']);
    expect(trace.steps.map((s) => `${s.actor} ${s.target} ${s.action}${s.value === undefined ? '' : ` ${s.value}`}${s.note ? ` (${s.note})` : ''}`)).toEqual([
      'A lock granted 1200',
      'A stock GET 5',
      'A stock SET 4',
      'A fault pause (stock-written)',
      'B lock granted 1200',
      'A expiry lease ran out',
      'B stock GET 4',
      'A fault resumes',
      'A lock DEL B (not-its-own)',
      'C lock granted 1200',
      'C stock GET 4',
      'B stock SET 3',
      'B lock released unknown',
      'C stock SET 3 (sold-twice)',
      'C lock released unknown',
    ]);
  });

  it("finds no double sale where the journal names none, but a deadlock: the holder never released, the first waiters timing out on it", () => {
    const steps = [step('dead', 0, 'lock', 'granted', 0), step('dead', 1, 'stock', 'GET', 5), ...['w1', 'w2', 'w3'].map((id, i) => step(id, 100 + i, 'lock', 'timed out', 100))];
    const faults = [{ kind: 'crash' as const, at: 'stock-read' as const, instance: 'os-2', requestId: 'dead', startedAt: 2, endedAt: null }];
    const trace = traceOfRun({ steps, faults, journalSaysNone: true, lockTimeouts: 3, remaining: 5 })!;
    expect(trace.kind).toBe('deadlock');
    expect(trace.orders.map((o) => o.requestId)).toEqual(['dead', 'w1', 'w2']);
    expect(trace.steps.map((s) => `${s.actor} ${s.action}`)).toEqual(['A granted', 'A GET', 'A crash', 'B timed out', 'C timed out']);
    // Nothing left to sell: no deadlock (nor a hot key's line: these waiters noted no request).
    expect(traceOfRun({ steps, journalSaysNone: true, lockTimeouts: 3, remaining: 0 })).toBeUndefined();
    // The crashed instance's steps died with it: its crash stands for the holder.
    const waitersOnly = steps.filter((s) => s.actor !== 'dead');
    expect(traceOfRun({ steps: waitersOnly, faults, journalSaysNone: true, lockTimeouts: 3, remaining: 5 })!.steps.map((s) => `${s.actor} ${s.action}`)).toEqual(['A crash', 'B timed out', 'C timed out']);
  });

  it('draws a retry storm: the order with the most failed version checks, and the sales that moved the version under it', () => {
    const steps = [
      step('loser', 0, 'stock', 'GET', 5),
      step('w1', 1, 'stock', 'GET', 5),
      step('w1', 2, 'stock', 'SET', 4),
      step('loser', 3, 'stock', 'UPDATE', 0, 'version:0'),
      step('loser', 10, 'stock', 'GET', 4),
      step('w2', 11, 'stock', 'GET', 4),
      step('w2', 12, 'stock', 'SET', 3),
      step('loser', 13, 'stock', 'UPDATE', 0, 'version:1'),
      step('once', 20, 'stock', 'GET', 3),
      step('once', 21, 'stock', 'UPDATE', 0, 'version:2'),
      step('later', 50, 'stock', 'GET', 3),
      step('later', 51, 'stock', 'SET', 2),
    ];
    const trace = traceOfRun({ steps, journalSaysNone: true, lockTimeouts: 0, remaining: 2, conflictRetries: 3, sold: 3 });
    expect(trace).toBeUndefined();
    const storm = traceOfRun({ steps, journalSaysNone: true, lockTimeouts: 0, remaining: 2, conflictRetries: 4, sold: 3 })!;
    expect(storm.kind).toBe('retry-storm');
    expect(storm.orders.map((o) => o.requestId)).toEqual(['loser', 'w1', 'w2']);
    expect(storm.focus).toBe('A');
    expect(storm.steps.filter((s) => s.action === 'UPDATE').map((s) => `${s.actor} ${s.value} ${s.note}`)).toEqual(['A 0 version:0', 'A 0 version:1']);
  });

  it('draws a hot key: the first order to give up, who held the lock while it waited, and the others in the line', () => {
    const held = (id: string, asked: number, from: number, to: number) => [step(id, asked, 'lock', 'requested'), step(id, from, 'lock', 'granted', 1000), step(id, to, 'lock', 'released', 'true')];
    const gaveUp = (id: string, asked: number, at: number) => [step(id, asked, 'lock', 'requested'), step(id, at, 'lock', 'timed out', at - asked)];
    const steps = [...held('h0', 0, 0, 40), ...held('h1', 1, 50, 150), ...held('h2', 2, 150, 260), ...held('h3', 3, 300, 400), ...gaveUp('q1', 50, 250), ...gaveUp('q2', 55, 255)];
    const trace = traceOfRun({ steps, journalSaysNone: true, lockTimeouts: 2, remaining: 0 })!;
    expect(trace.kind).toBe('hot-key');
    // q1 waited from 50 to 250: h1 and h2 held the key meanwhile (h0 had let go); q2 gave up beside it, h3 got it after.
    expect(trace.orders.map((o) => o.requestId)).toEqual(['h1', 'h2', 'h3', 'q1', 'q2']);
    expect(trace.focus).toBe('D');
    expect(trace.steps.map((s) => `${s.actor} ${s.action} ${s.at}`)).toEqual([
      'A requested 1',
      'B requested 2',
      'C requested 3',
      'A granted 50',
      'D requested 50',
      'E requested 55',
      'A released 150',
      'B granted 150',
      'D timed out 250',
      'E timed out 255',
      'B released 260',
      'C granted 300',
      'C released 400',
    ]);
    // With no order given up, the sign is stock left: the longest wait is drawn.
    const granted = [...held('h0', 0, 0, 100), ...held('h1', 10, 100, 200), ...held('h2', 20, 200, 300)];
    expect(traceOfRun({ steps: granted, journalSaysNone: true, lockTimeouts: 0, remaining: 7 })!.orders.map((o) => o.requestId)).toEqual(['h0', 'h1', 'h2']);
    // Neither sign: no trace.
    expect(traceOfRun({ steps: granted, journalSaysNone: true, lockTimeouts: 0, remaining: 0 })).toBeUndefined();
  });
});
