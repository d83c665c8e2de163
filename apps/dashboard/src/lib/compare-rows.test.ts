import { describe, expect, it } from 'vitest';
import { NOOP_TARGET, STRATEGY_NAMES } from '@oversell/contracts';
import { result, run } from '../test/fixtures';
import { buildCompareRows } from './compare-rows';

describe('buildCompareRows', () => {
  it('lists every strategy with its latest completed run and marks the ones with a run in progress', () => {
    const runs = [
      run({ id: 'queued', status: 'queued', result: null }),
      run({ id: 'new', result: result({ throughput: 500 }) }),
      run({ id: 'old', result: result({ throughput: 100 }) }),
      run({ id: 'noop', params: { strategy: NOOP_TARGET, initialStock: 0, load: { connections: 1 } }, result: result({ throughput: 1000 }) }),
    ];
    const rows = buildCompareRows(runs);
    expect(rows.map((r) => r.strategy)).toEqual([...STRATEGY_NAMES]);
    const noLock = rows.find((r) => r.strategy === 'no-lock');
    expect(noLock).toMatchObject({ pending: true, throughput: 500, ceilingRatio: 0.5, oversold: 3, p99: 20 });
    expect(noLock?.run?.id).toBe('new');
    expect(rows.find((r) => r.strategy === 'watchdog')).toEqual({ strategy: 'watchdog', pending: false });
  });
});
