import type { BenchRow, ContendedPhase } from '@oversell/contracts';
import { lockStrategies, roundTripBound, uncontendedRun, withRoundTrip } from './round-trip-bound';

const section = (requestedAt: number, ms: number) => ({ requestedAt, releasedAt: requestedAt + ms });
const phase = (unitsPerSec: number): ContendedPhase => ({ soldOut: true, durationMs: 1000, attempts: 10, units: unitsPerSec, unitsPerSec, p50: 1, p99: 2 });
const row = (contendedPhase: ContendedPhase | null) => ({ strategy: 'watchdog', contendedPhase, roundTrip: null }) as unknown as BenchRow;

describe('roundTripBound', () => {
  it('takes the median section, from asking for the lock to releasing it, and 1000 ÷ it per second', () => {
    // Odd count: the middle one; the 40 ms outlier (a GC pause) moves nothing.
    expect(roundTripBound([section(0, 2), section(10, 40), section(20, 2.5)])).toEqual({ holdMs: 2.5, boundPerSec: 400, sections: 3 });
    // Even count: the mean of the two middle ones.
    expect(roundTripBound([section(0, 1), section(5, 3), section(9, 4), section(20, 10)])).toEqual({ holdMs: 3.5, boundPerSec: 285.7, sections: 4 });
  });

  it('has no bound when the run held no lock', () => {
    expect(roundTripBound([])).toBeNull();
  });
});

describe('withRoundTrip', () => {
  const bound = { holdMs: 4, boundPerSec: 250, sections: 100 };

  it('rates the contended phase against the bound: units/s ÷ bound', () => {
    expect(withRoundTrip(row(phase(125)), bound).roundTrip).toEqual({ ...bound, efficiency: 0.5 });
  });

  it('keeps the bound but no efficiency when the run had no contended phase', () => {
    expect(withRoundTrip(row(null), bound).roundTrip).toEqual({ ...bound, efficiency: null });
  });

  it('leaves a row without a bound (not a lock strategy) as it was', () => {
    const plain = row(phase(125));
    expect(withRoundTrip(plain, null)).toBe(plain);
  });
});

describe('uncontendedRun', () => {
  it('sends one connection, with stock for every order it can send, under the bench’s lock settings', () => {
    const run = uncontendedRun('watchdog', { lockTtlMs: 2000, businessDelayMs: 5, segments: undefined }, 'compare');
    expect(run).toMatchObject({ strategy: 'watchdog', scenario: 'compare', lockTtlMs: 2000, businessDelayMs: 5, load: { connections: 1 } });
    expect(run.initialStock).toBe(run.load.totalRequests);
  });
});

describe('lockStrategies', () => {
  it('keeps the benched strategies whose description says they hold a lock, in the bench’s order', () => {
    const descriptions = [
      { name: 'watchdog', kind: 'lock' },
      { name: 'lua-decrement', kind: 'atomic' },
      { name: 'etcd', kind: 'lock' },
      { name: 'db-optimistic', kind: 'database' },
      { name: 'no-lock', kind: 'none' },
    ] as const;
    expect(lockStrategies(['no-lock', 'etcd', 'lua-decrement', 'db-optimistic', 'watchdog'], descriptions)).toEqual(['etcd', 'watchdog']);
    // A lock strategy not benched gets no uncontended run.
    expect(lockStrategies(['lua-decrement'], descriptions)).toEqual([]);
  });
});
