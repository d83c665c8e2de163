import type { RunParams, RunView } from '@oversell/contracts';

/** What queuing several runs in order came to: the runs queued, and the refusal that stopped the rest. */
export interface StartedInOrder {
  /** In the order asked: all of them, or those before the refusal. */
  runs: RunView[];
  /** The first run the service refused, by its index in the request, and why; nothing after it was sent. */
  refused?: { index: number; error: Error };
}

/**
 * Queues runs one after the other, so the service runs them in that order. The API cannot take a
 * queued run back, so when a later one is refused the runs already queued are returned with the
 * refusal, never dropped; a refusal of the first is thrown, since then nothing was queued.
 */
export async function startInOrder(params: readonly RunParams[], start: (params: RunParams) => Promise<RunView>): Promise<StartedInOrder> {
  const runs: RunView[] = [];
  for (const [index, one] of params.entries()) {
    try {
      runs.push(await start(one));
    } catch (error) {
      if (runs.length === 0) throw error;
      return { runs, refused: { index, error: error instanceof Error ? error : new Error(String(error)) } };
    }
  }
  return { runs };
}
