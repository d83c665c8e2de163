import { describe, expect, it } from 'vitest';
import { NOOP_TARGET } from '@oversell/contracts';
import { result, run } from '../test/fixtures';
import { ceilingRatio, findCeilingRun, formatRatio } from './ceiling';

const noop = (id: string, throughput: number, batchId?: string) =>
  run({ id, params: { strategy: NOOP_TARGET, initialStock: 0, load: { connections: 60 }, batchId }, result: result({ throughput }) });

describe('ceiling', () => {
  it('expresses throughput as a share of the ceiling, rounded to whole percent', () => {
    expect(formatRatio(ceilingRatio(720, 1000))).toBe('72\u00a0%');
    expect(formatRatio(ceilingRatio(720, undefined))).toBe('—');
    expect(formatRatio(ceilingRatio(720, 0))).toBe('—');
  });

  it('prefers the no-op run of the same batch over a newer one', () => {
    const strategyRun = run({ params: { ...run().params, batchId: 'b1' } });
    const runs = [noop('newest', 2000), strategyRun, noop('same-batch', 1000, 'b1')];
    expect(findCeilingRun(strategyRun, runs)?.id).toBe('same-batch');
  });

  it('falls back to the latest completed no-op run, skipping failed ones', () => {
    const runs = [{ ...noop('failed', 5000), status: 'failed' as const, result: null }, noop('latest', 1000), noop('older', 900)];
    expect(findCeilingRun(run(), runs)?.id).toBe('latest');
    expect(findCeilingRun(run(), [run()])).toBeUndefined();
  });
});
