import type { BenchRow, LockEvent, RoundTripBound, RunParams, StrategyDescription, StrategyName } from '@oversell/contracts';

/** Orders of an uncontended run: enough for a steady median, and no more than the lab's slowest lock needs a few seconds for. */
export const UNCONTENDED_ORDERS = 100;
/** The uncontended run ends here even if its orders are not all sent (etcd grants 10–25 locks/s on a loaded 2-core machine). */
export const UNCONTENDED_MAX_SEC = 1;

/** Of the strategies benched, those whose catalogue entry (or description) says they hold a lock (kind 'lock'). */
export function lockStrategies(benched: readonly StrategyName[], descriptions: readonly Pick<StrategyDescription, 'name' | 'kind'>[]): StrategyName[] {
  const locks = new Set(descriptions.filter((d) => d.kind === 'lock').map((d) => d.name));
  return benched.filter((name) => locks.has(name));
}

/**
 * A lock strategy's uncontended run: one connection, so each order's section runs with nobody waiting
 * (acquire, read, write, release), under the bench's own lock TTL and business delay; stock for every
 * order, so none is answered "sold out" without taking the lock.
 */
export function uncontendedRun(strategy: StrategyName, settings: Pick<RunParams, 'lockTtlMs' | 'businessDelayMs' | 'segments'>, scenario: string): RunParams {
  return {
    ...settings,
    strategy,
    scenario,
    initialStock: UNCONTENDED_ORDERS,
    load: { connections: 1, totalRequests: UNCONTENDED_ORDERS, durationSec: UNCONTENDED_MAX_SEC, quantity: 1 },
  };
}

/**
 * The bound from an uncontended run's lock events: the median section, from asking for the lock to
 * sending its release (observeLock stamps releasedAt there), and 1 ÷ that. The median, so a stray GC
 * pause does not move it. Null when the run held no lock.
 */
export function roundTripBound(events: readonly Pick<LockEvent, 'requestedAt' | 'releasedAt'>[]): Omit<RoundTripBound, 'efficiency'> | null {
  if (events.length === 0) return null;
  const sections = events.map((e) => e.releasedAt - e.requestedAt).sort((a, b) => a - b);
  const middle = sections.length >> 1;
  const holdMs = sections.length % 2 ? sections[middle] : (sections[middle - 1] + sections[middle]) / 2;
  return { holdMs: round(holdMs, 3), boundPerSec: holdMs > 0 ? round(1000 / holdMs, 1) : 0, sections: sections.length };
}

/** The row with its bound and how close its contended phase came to it (units/s ÷ bound). */
export function withRoundTrip(row: BenchRow, bound: Omit<RoundTripBound, 'efficiency'> | null): BenchRow {
  if (!bound) return row;
  const efficiency = row.contendedPhase && bound.boundPerSec > 0 ? round(row.contendedPhase.unitsPerSec / bound.boundPerSec, 3) : null;
  return { ...row, roundTrip: { ...bound, efficiency } };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
