import type { LockEvent } from './runs';

/**
 * How much two processes' clocks may disagree (see preciseNow in libs/locks): a holding must begin more
 * than this before an earlier one ended to count. Real overlaps of an expired lease last as long as the
 * business that outlived it, milliseconds to seconds; clock disagreement is below a few hundred microseconds.
 */
export const CLOCK_TOLERANCE_MS = 1;

/** A holding granted while another holding of the same lock key was still held: mutual exclusion was violated. */
export interface ExclusionViolation {
  /** Index, in the events checked, of the holding granted too early. */
  holding: number;
  /** Index of the holding it was granted inside: of the ones granted before it, the one released last. */
  heldBy: number;
}

/**
 * Mutual-exclusion violations in a history of lock holdings, checked the way Jepsen checks a
 * lock-guarded read-modify-write: per lock key, holdings in order of acquisition, each one that began
 * before an earlier one had been released is a violation. Times come from the processes' clocks; the
 * release is stamped before it is sent and the acquisition after it is granted, so a correct lock never
 * shows an overlap here beyond CLOCK_TOLERANCE_MS. O(n log n): it runs on every event a run recorded.
 * The one rule for the run's reconciliation and the dashboard's lock timeline.
 */
export function findExclusionViolations(events: readonly Pick<LockEvent, 'lockKey' | 'acquiredAt' | 'releasedAt'>[]): ExclusionViolation[] {
  const byKey = new Map<string, number[]>();
  events.forEach((event, index) => {
    const indexes = byKey.get(event.lockKey);
    if (indexes) indexes.push(index);
    else byKey.set(event.lockKey, [index]);
  });

  const violations: ExclusionViolation[] = [];
  for (const indexes of byKey.values()) {
    // On equal acquisition times the one released first goes first: it cannot have overlapped the other.
    indexes.sort((a, b) => events[a].acquiredAt - events[b].acquiredAt || events[a].releasedAt - events[b].releasedAt);
    let heldBy = indexes[0];
    for (const index of indexes.slice(1)) {
      if (events[index].acquiredAt < events[heldBy].releasedAt - CLOCK_TOLERANCE_MS) violations.push({ holding: index, heldBy });
      if (events[index].releasedAt > events[heldBy].releasedAt) heldBy = index;
    }
  }
  return violations;
}
