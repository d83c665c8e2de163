import { describe, expect, it } from 'vitest';
import { NOOP_TARGET } from '@oversell/contracts';
import { result, run } from '../test/fixtures';
import { ceilingRatio, findCeilingRun, formatRatio, ratioLabel } from './ceiling';

const noop = (id: string, throughput: number, batchId?: string) =>
  run({ id, params: { strategy: NOOP_TARGET, initialStock: 0, load: { connections: 60 }, batchId }, result: result({ throughput }) });

describe('ceiling', () => {
  it('expresses throughput as a share of the ceiling, rounded to whole percent', () => {
    expect(formatRatio(ceilingRatio(720, 1000), 'en')).toBe('72\u00a0%');
    expect(formatRatio(ceilingRatio(720, undefined), 'en')).toBe('—');
    expect(formatRatio(ceilingRatio(720, 0), 'en')).toBe('—');
  });

  it('shows a share that rounds to 0 % but is above 0 as "<1 %", never as 0 %', () => {
    expect(formatRatio(ceilingRatio(4.5, 1000), 'en')).toBe('<1\u00a0%');
    expect(ratioLabel(ceilingRatio(4.5, 1000), 'en')).toBe('<1\u00a0%');
    expect(formatRatio(ceilingRatio(0, 1000), 'en')).toBe('0\u00a0%');
  });

  it('shows a share above 100 % as a measurement problem, never as a percentage or a bar label', () => {
    expect(formatRatio(ceilingRatio(1000, 1000), 'en')).toBe('100\u00a0%');
    expect(formatRatio(ceilingRatio(1004, 1000), 'en')).toBe('100\u00a0%');
    expect(formatRatio(ceilingRatio(1340, 1000), 'en')).toBe('ceiling measured low — rerun');
    expect(formatRatio(ceilingRatio(1340, 1000), 'zh-CN')).toBe('上限测得偏低——请重跑');
    expect(ratioLabel(ceilingRatio(720, 1000), 'en')).toBe('72\u00a0%');
    expect(ratioLabel(ceilingRatio(1340, 1000), 'en')).toBeUndefined();
    expect(ratioLabel(ceilingRatio(720, undefined), 'en')).toBeUndefined();
  });

  it('prefers the no-op run of the same batch over a newer one', () => {
    const strategyRun = run({ params: { ...run().params, batchId: 'b1' } });
    const runs = [noop('newest', 2000), strategyRun, noop('same-batch', 1000, 'b1')];
    expect(findCeilingRun(strategyRun, runs)?.id).toBe('same-batch');
  });

  it('never takes a warm-up run for the ceiling', () => {
    const strategyRun = run({ params: { ...run().params, batchId: 'b1' } });
    const warmUp = noop('warm-up', 400, 'b1');
    const runs = [{ ...warmUp, params: { ...warmUp.params, warmUp: true } }, noop('ceiling', 1000, 'b1')];
    expect(findCeilingRun(strategyRun, runs)?.id).toBe('ceiling');
    expect(findCeilingRun(run(), runs)?.id).toBe('ceiling');
  });

  it('falls back to the latest completed no-op run, skipping failed ones', () => {
    const runs = [{ ...noop('failed', 5000), status: 'failed' as const, result: null }, noop('latest', 1000), noop('older', 900)];
    expect(findCeilingRun(run(), runs)?.id).toBe('latest');
    expect(findCeilingRun(run(), [run()])).toBeUndefined();
  });
});
