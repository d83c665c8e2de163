import { describe, expect, it } from 'vitest';
import { ceilingWarmUp, findPitfallPreset, NOOP_TARGET, type RunParams } from '@oversell/contracts';
import { run } from '../test/fixtures';
import { t } from '../test/i18n';
import { describePresetSettings, describeRunParams, noopRole } from './run-description';

describe('run description', () => {
  const noop: RunParams = { strategy: NOOP_TARGET, initialStock: 100, load: { connections: 60, durationSec: 10 } };

  it("says a strategy run's stock, lock and load", () => {
    expect(describeRunParams(run().params, t)).toBe('stock 50 · business delay 20 ms · 60 connections · 5 s');
    expect(noopRole(run().params)).toBeUndefined();
  });

  it('says only the load of a no-op run, which takes no stock, and tells its warm-up from the ceiling', () => {
    expect(describeRunParams(noop, t)).toBe('60 connections · 10 s');
    expect(noopRole(noop)).toBe('ceiling');
    expect(noopRole({ ...noop, ...ceilingWarmUp(noop.load) })).toBe('warmUp');
  });

  it("says a preset's faults with their point and length", () => {
    const preset = findPitfallPreset('mis-deletion');
    expect(preset && describePresetSettings(preset.sides[0].settings, t)).toBe(
      'stock 5 · lock TTL 1200 ms · business delay 600 ms · 10 connections · 4 s · fault: pause at stock-written for 800 ms',
    );
  });
});
