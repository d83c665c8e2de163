import { holdingOf, preciseNow, type DistributedLock } from '@oversell/locks';
import { randomUUID } from 'node:crypto';

/**
 * The control row: grants every request at once and guards nothing. Its lost increments show the bench
 * catches overlapping sections, and its sections/s is what GET + SET cost with no lock at all.
 */
export const noLock: DistributedLock = {
  name: 'no-lock',
  acquire: async (key, { leaseMs, token = randomUUID() }) => holdingOf({ key, token, acquiredAt: preciseNow(), leaseMs, release: async () => 'unknown' }),
};
