import type { LockEvent } from '@oversell/contracts';

/**
 * Indexes of the holdings that overlap another holding of the same lock key: two requests believed
 * they held the same lock at once, i.e. mutual exclusion was violated. Touching holdings (one released
 * exactly when the next acquired) do not overlap.
 *
 * Per key, holdings are swept in acquisition order while remembering the one that releases last so far:
 * a holding that starts before that release overlaps it. O(n log n), so it can run on every event a run
 * recorded, not only the ones drawn.
 */
export function findLockOverlaps(events: readonly LockEvent[]): Set<number> {
  const byKey = new Map<string, number[]>();
  events.forEach((event, index) => {
    const indexes = byKey.get(event.lockKey);
    if (indexes) indexes.push(index);
    else byKey.set(event.lockKey, [index]);
  });

  const overlapping = new Set<number>();
  for (const indexes of byKey.values()) {
    indexes.sort((a, b) => events[a].acquiredAt - events[b].acquiredAt);
    let latest = indexes[0];
    for (const index of indexes.slice(1)) {
      if (events[index].acquiredAt < events[latest].releasedAt) {
        overlapping.add(index);
        overlapping.add(latest);
      }
      if (events[index].releasedAt > events[latest].releasedAt) latest = index;
    }
  }
  return overlapping;
}
