import { ceilingPercent, ceilingWarmUp, isCeilingRun, NOOP_TARGET, type RunView } from './runs';

const noop = (patch: Partial<RunView['params']>, status: RunView['status'] = 'completed'): RunView => ({
  id: 'r1',
  status,
  params: { strategy: NOOP_TARGET, initialStock: 0, load: { connections: 50, durationSec: 10 }, ...patch },
  productId: 1,
  createdAt: '',
  startedAt: null,
  finishedAt: null,
  failure: null,
  result: status === 'completed' ? ({} as RunView['result']) : null,
});

describe('the no-op ceiling', () => {
  it('is warmed up by a short discarded no-op run with the same connections', () => {
    expect(ceilingWarmUp({ connections: 50, durationSec: 10, arrivalRate: 100 })).toEqual({ strategy: NOOP_TARGET, load: { connections: 50, durationSec: 3 }, warmUp: true });
  });

  it('is measured by a completed no-op run, never by the warm-up', () => {
    expect(isCeilingRun(noop({}))).toBe(true);
    expect(isCeilingRun(noop({ ...ceilingWarmUp({ connections: 50 }) }))).toBe(false);
    expect(isCeilingRun(noop({}, 'failed'))).toBe(false);
    expect(isCeilingRun(noop({ strategy: 'lua-decrement' }))).toBe(false);
  });

  it('bounds every share: above 100 % (after rounding) is no figure at all', () => {
    expect(ceilingPercent(0.724)).toBe(72);
    expect(ceilingPercent(1.004)).toBe(100);
    expect(ceilingPercent(1.34)).toBeNull();
  });
});
