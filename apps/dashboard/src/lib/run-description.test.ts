import { describe, expect, it } from 'vitest';
import { ceilingWarmUp, NOOP_TARGET, type RunParams } from '@oversell/contracts';
import { run } from '../test/fixtures';
import { describeRunParams, noopRole } from './run-description';

describe('run description', () => {
  const noop: RunParams = { strategy: NOOP_TARGET, initialStock: 100, load: { connections: 60, durationSec: 10 } };

  it("says a strategy run's stock, lock and load", () => {
    expect(describeRunParams(run().params)).toBe('stock 50 · business delay 20 ms · 60 connections · 5 s');
    expect(noopRole(run().params)).toBeUndefined();
  });

  it('says only the load of a no-op run, which takes no stock, and tells its warm-up from the ceiling', () => {
    expect(describeRunParams(noop)).toBe('60 connections · 10 s');
    expect(noopRole(noop)).toBe('no-op ceiling');
    expect(noopRole({ ...noop, ...ceilingWarmUp(noop.load) })).toBe('warm-up, discarded');
  });
});
