import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls a store until it shows what the test waits for (a command applied, a thread gone), failing
 * with `what` after timeoutMs: the test waits on the state itself, not on a guess of how long it takes.
 */
export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}
