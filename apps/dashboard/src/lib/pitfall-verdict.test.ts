import { findPitfallPreset, type PitfallPreset } from '@oversell/contracts';
import { describe, expect, it } from 'vitest';
import { result, run } from '../test/fixtures';
import { isExpectedVerdict, pitfallVerdict } from './pitfall-verdict';

const preset = findPitfallPreset('expiry-during-business') as PitfallPreset;
const [broken, fix] = preset.sides;
const oversold = (n: number) => run({ result: result({ reconciliation: { ...result().reconciliation, oversold: n } }) });

describe('pitfallVerdict', () => {
  it('waits for a run that is not there yet, queued or running, and says when it failed', () => {
    expect(pitfallVerdict(preset, broken, undefined)).toBe('pending');
    expect(pitfallVerdict(preset, broken, run({ status: 'running', result: null }))).toBe('pending');
    expect(pitfallVerdict(preset, fix, run({ status: 'failed', result: null, failure: 'boom' }))).toBe('failed');
  });

  it('judges a completed broken side by whether it showed the pitfall, a fix by whether it stayed clean', () => {
    expect(pitfallVerdict(preset, broken, oversold(4))).toBe('showed');
    expect(pitfallVerdict(preset, broken, oversold(0))).toBe('missed');
    expect(pitfallVerdict(preset, fix, oversold(0))).toBe('clean');
    expect(pitfallVerdict(preset, fix, oversold(1))).toBe('not-clean');
    expect(['showed', 'clean'].every((v) => isExpectedVerdict(v as never))).toBe(true);
    expect(['missed', 'not-clean', 'failed', 'pending'].some((v) => isExpectedVerdict(v as never))).toBe(false);
  });
});
