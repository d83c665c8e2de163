import { stepsOfReplay } from './trace';

describe('stepsOfReplay', () => {
  it('reads the MSG lines of a replay, in order, and skips the rest of spin\'s output', () => {
    const replay = [
      'MSG B lock SET_NX_PX OK -',
      'MSG B stock GET 2 -',
      'MSG B fault stop_the_world - stock_read',
      'MSG B expiry lease_ran_out - -',
      'spin: lab.pml:71, Error: assertion violated',
      '#processes: 3',
      ' 13:\tproc  2 (Order:1) lab.pml:82 (state 58)',
    ].join('\n');
    expect(stepsOfReplay(replay)).toEqual([
      { actor: 'A', target: 'lock', action: 'SET NX PX', value: 'OK' },
      { actor: 'A', target: 'stock', action: 'GET', value: 2 },
      { actor: 'A', target: 'fault', action: 'stop-the-world', note: 'stock-read' },
      { actor: 'A', target: 'expiry', action: 'lease ran out' },
    ]);
  });

  it('names the orders A, B, C in the order they first act, values that name an order too', () => {
    const replay = ['MSG C lock SETNX 1 -', 'MSG A lock SETNX 0 waits', 'MSG C lock DEL A not_its_own', 'MSG B lock GET 1 expired_by_its_clock'].join('\n');
    expect(stepsOfReplay(replay)).toEqual([
      { actor: 'A', target: 'lock', action: 'SETNX', value: 1 },
      { actor: 'B', target: 'lock', action: 'SETNX', value: 0, note: 'waits' },
      { actor: 'A', target: 'lock', action: 'DEL', value: 'B', note: 'not-its-own' },
      { actor: 'C', target: 'lock', action: 'GET', value: 1, note: 'expired-by-its-clock' },
    ]);
  });

  it("marks the second sale of a unit on that order's last step, not as a step of its own", () => {
    const replay = ['MSG A stock GET 1 -', 'MSG B stock GET 1 -', 'MSG A stock SET 0 -', 'MSG B stock SET 0 -', 'MSG B stock sold_twice 1 -'].join('\n');
    expect(stepsOfReplay(replay).slice(2)).toEqual([
      { actor: 'A', target: 'stock', action: 'SET', value: 0 },
      { actor: 'B', target: 'stock', action: 'SET', value: 0, note: 'sold-twice' },
    ]);
  });

  it('keeps negative replies and RedLock nodes as they are', () => {
    expect(stepsOfReplay('MSG A lock EVAL_watchdog_release -1 not_its_own\nMSG A node3 restarts_empty - -')).toEqual([
      { actor: 'A', target: 'lock', action: 'EVAL watchdog release', value: -1, note: 'not-its-own' },
      { actor: 'A', target: 'node3', action: 'restarts empty' },
    ]);
  });

  it('ends a deadlock with the orders blocked in the final state, not those at a valid end', () => {
    const replay = [
      'MSG A lock SETNX 1 -',
      'MSG B lock SETNX 0 waits',
      'MSG A fault crash - lock_acquired',
      '#processes: 3',
      '  6:\tproc  2 (Order:1) setnx-no-ttl.pml:19 (state 10)',
      '  6:\tproc  1 (Order:1) setnx-no-ttl.pml:27 (state 129) <valid end state>',
      '  6:\tproc  0 (Store:1) ',
    ].join('\n');
    expect(stepsOfReplay(replay).slice(2)).toEqual([
      { actor: 'A', target: 'fault', action: 'crash', note: 'lock-acquired' },
      { actor: 'B', target: 'lock', action: 'waits for ever', note: 'deadlock' },
    ]);
  });

  it('adds no waiting step after a failed assertion, where the orders are merely stopped', () => {
    const replay = ['MSG A stock SET 0 -', 'spin: lab.pml:71, Error: assertion violated', ' 13:\tproc  2 (Order:1) lab.pml:82 (state 58)'].join('\n');
    expect(stepsOfReplay(replay)).toEqual([{ actor: 'A', target: 'stock', action: 'SET', value: 0 }]);
  });

  it('gives no steps for a replay with no MSG line', () => {
    expect(stepsOfReplay('spin: trail ends after 0 steps\n')).toEqual([]);
  });
});
