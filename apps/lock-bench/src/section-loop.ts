import type { DistributedLock } from '@oversell/locks';
import type Redis from 'ioredis';
import { newWaitHistogram } from './wait-histogram';

/** The keys one measured run works on: the lock and the counter its sections increment. */
export interface SectionKeys {
  lock: string;
  counter: string;
}

export interface SectionSettings {
  workers: number;
  seconds: number;
  leaseMs: number;
  waitMs: number;
}

export interface SectionTally {
  sections: number;
  timeouts: number;
  errors: number;
  errorSamples: string[];
  /** Time spent inside sections (from the grant to the release call): the lock is busy doing work. */
  heldMs: number;
  /** From the start to the last worker done (a section begun before the deadline is finished). */
  elapsedMs: number;
  waits: ReturnType<typeof newWaitHistogram>;
}

const ERROR_SAMPLES = 3;

/**
 * `workers` concurrent loops in this process, each: acquire → GET counter → SET counter+1 → release,
 * until `seconds` have passed. A read-modify-write the lock does not protect loses increments, so the
 * counter against the sections completed shows every breach of mutual exclusion. A timed-out acquire
 * is counted and the worker goes on; so is an error.
 */
export async function runSections(lock: DistributedLock, redis: Redis, keys: SectionKeys, settings: SectionSettings): Promise<SectionTally> {
  const tally: SectionTally = { sections: 0, timeouts: 0, errors: 0, errorSamples: [], heldMs: 0, elapsedMs: 0, waits: newWaitHistogram() };
  const failed = (error: unknown) => {
    tally.errors++;
    if (tally.errorSamples.length < ERROR_SAMPLES) tally.errorSamples.push(error instanceof Error ? error.message : String(error));
  };
  const started = performance.now();
  const deadline = started + settings.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const asked = performance.now();
      const holding = await lock.acquire(keys.lock, { waitMs: settings.waitMs, leaseMs: settings.leaseMs }).catch(failed);
      if (holding === undefined) continue;
      if (holding === null) {
        tally.timeouts++;
        continue;
      }
      const granted = performance.now();
      tally.waits.recordValue(Math.max(1, Math.round((granted - asked) * 1000)));
      try {
        const value = Number((await redis.get(keys.counter)) ?? 0);
        await redis.set(keys.counter, value + 1);
        tally.sections++;
      } catch (error) {
        failed(error);
      } finally {
        tally.heldMs += performance.now() - granted;
        await holding.release().catch(failed);
      }
    }
  };
  await Promise.all(Array.from({ length: settings.workers }, worker));
  tally.elapsedMs = performance.now() - started;
  return tally;
}
