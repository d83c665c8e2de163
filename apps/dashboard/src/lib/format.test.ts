import { describe, expect, it } from 'vitest';
import { t } from '../test/i18n';
import { formatContendedPhase, formatRate } from './format';

describe('formatContendedPhase', () => {
  const phase = { soldOut: true, durationMs: 3000, attempts: 900, units: 1000, unitsPerSec: 333.3, p50: 5, p99: 40 };

  it('gives the sell-out time and the units sold per second until then', () => {
    expect(formatContendedPhase(phase, t)).toBe('sold out in 3 s, 333 units/s');
  });

  it('says so when the stock never ran out in the run', () => {
    expect(formatContendedPhase({ ...phase, soldOut: false, durationMs: 8000, units: 182, unitsPerSec: 22.75 }, t)).toBe('never sold out, 23 units/s');
  });

  it('shows a dash for a result from before the phase was measured', () => {
    expect(formatContendedPhase(undefined, t)).toBe('—');
  });

  it('keeps one decimal for a rate under 10, so 3.5 and 1.7 units/s do not read as 4 and 2', () => {
    expect(formatContendedPhase({ ...phase, soldOut: false, unitsPerSec: 3.5 }, t)).toBe('never sold out, 3.5 units/s');
    expect(formatContendedPhase({ ...phase, unitsPerSec: 1.7 }, t)).toBe('sold out in 3 s, 1.7 units/s');
    expect(formatRate(3.5)).toBe('3.5/s');
    expect(formatRate(12.4)).toBe('12/s');
  });
});
