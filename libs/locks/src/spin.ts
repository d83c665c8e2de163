import { setTimeout as sleep } from 'node:timers/promises';

const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 50;

/**
 * Tries until an attempt succeeds or the wait runs out, backing off exponentially with jitter
 * between attempts: jitter keeps the waiters of several processes from retrying in lockstep.
 * Returns what the winning attempt returned, or null on timeout. One attempt is always made.
 */
export async function spin<T>(attempt: () => Promise<T | null>, waitMs: number): Promise<T | null> {
  const deadline = Date.now() + waitMs;
  for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
    const won = await attempt();
    if (won !== null) return won;
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await sleep(Math.min(left, backoff / 2 + Math.random() * backoff));
  }
}
