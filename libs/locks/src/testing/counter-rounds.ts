import type { DistributedLock } from '../distributed-lock';

/** A counter kept in the lock's own store, read and written without any guard of its own. */
export interface UnguardedCounter {
  read(): Promise<number>;
  write(value: number): Promise<unknown>;
}

/**
 * What one client of a contender process does: `rounds` times acquire → read the counter → write it + 1
 * → release. Returns each grant as [fencing token, counter read]; two holders at once read the same value.
 */
export async function counterRounds(lock: DistributedLock, lockKey: string, counter: UnguardedCounter, rounds: number): Promise<[number, number][]> {
  const grants: [number, number][] = [];
  for (let i = 0; i < rounds; i++) {
    const holding = await lock.acquire(lockKey, { waitMs: 30_000, leaseMs: 5000 });
    if (!holding) throw new Error(`${lockKey} not had within 30 s`);
    const read = await counter.read();
    await counter.write(read + 1);
    grants.push([holding.fencingToken!, read]);
    if ((await holding.release()) !== true) throw new Error('released a lock it no longer held');
  }
  return grants;
}
