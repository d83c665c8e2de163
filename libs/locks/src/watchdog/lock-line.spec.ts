import { LockLine } from './lock-line';

describe('a lock line (one key, one process)', () => {
  it('gives the first caller the turn and hands on to the waiters in arrival order', async () => {
    const line = new LockLine<string, string>();
    expect(await line.enter('a', 1000)).toBe('turn');
    const b = line.enter('b', 1000);
    const c = line.enter('c', 1000);
    const next = line.next();
    expect(next?.waiter).toBe('b');
    next!.hand('the lock');
    expect(await b).toBe('the lock');
    line.handOn();
    expect(await c).toBe('turn');
    expect(line.idle).toBe(false);
    line.handOn();
    expect(line.idle).toBe(true);
  });

  it('drops a waiter whose wait ran out, and never hands it anything', async () => {
    const line = new LockLine<string, string>();
    await line.enter('a', 1000);
    const late = line.enter('late', 20);
    const patient = line.enter('patient', 5000);
    expect(await late).toBeNull();
    const next = line.next();
    expect(next?.waiter).toBe('patient');
    next!.hand('turn');
    expect(await patient).toBe('turn');
    line.handOn();
    expect(line.idle).toBe(true);
  });

  it('keeps its promise to a waiter taken out of the line even if its wait runs out before the hand-over lands', async () => {
    jest.useFakeTimers();
    try {
      const line = new LockLine<string, string>();
      await line.enter('holder', 1000);
      const first = line.enter('first', 50);
      const second = line.enter('second', 5000);
      // The holder takes the first waiter out, then spends a round trip passing it the lock.
      const next = line.next();
      jest.advanceTimersByTime(100);
      next!.hand('the lock');
      expect(await first).toBe('the lock');
      // The other waiter was not dropped in its place: it is next.
      const after = line.next();
      expect(after?.waiter).toBe('second');
      after!.hand('turn');
      expect(await second).toBe('turn');
    } finally {
      jest.useRealTimers();
    }
  });
});
