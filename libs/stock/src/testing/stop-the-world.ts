import type { OrderOutcome, StrategyName } from '@oversell/contracts';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultHook, FaultPoint } from '../fault-points';
import { collect, forkWorker, type WorkerDone, type WorkerStart } from './concurrent-orders';
import { until } from './until';

/**
 * Blocks this process's event loop for real, as a stop-the-world GC pause does: no timer and no I/O
 * callback runs (the watchdog's renewals neither) until `wakeFile` exists. The file is checked
 * synchronously between short Atomics.wait slices, so the loop never turns while frozen, and the test
 * ends the pause when its own step is done instead of guessing a duration.
 */
export function stopTheWorldUntil(wakeFile: string, capMs = 60_000): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + capMs;
  while (!existsSync(wakeFile)) {
    if (Date.now() > deadline) throw new Error(`stop-the-world: ${wakeFile} did not appear within ${capMs} ms`);
    Atomics.wait(cell, 0, 0, 10);
  }
}

/** A fault hook freezing the process the first time an order reaches the point; `frozenFile` says it is frozen. */
export function freezeHook({ point, frozenFile, wakeFile }: NonNullable<WorkerStart['freezeAt']>): FaultHook {
  let frozen = false;
  return (at) => {
    if (at !== point || frozen) return;
    frozen = true;
    writeFileSync(frozenFile, '');
    stopTheWorldUntil(wakeFile);
  };
}

/**
 * Places one order in an OS process of its own (its own StockModule and connections) that freezes
 * its whole event loop when the order reaches `at`. Resolves once the process is frozen there; `wake`
 * ends the pause and answers how the order ended.
 */
export async function placeOrderFrozenAt(spec: { keyPrefix: string; productId: number; strategy: StrategyName; at: FaultPoint }): Promise<{ wake(): Promise<OrderOutcome> }> {
  const dir = mkdtempSync(join(tmpdir(), 'stop-the-world-'));
  const freezeAt = { point: spec.at, frozenFile: join(dir, 'frozen'), wakeFile: join(dir, 'wake') };
  const child = forkWorker();
  const cleanup = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const messages = collect(child);
    const ready = messages('ready');
    const done = messages('done') as Promise<WorkerDone>;
    done.catch(() => undefined);
    const start: WorkerStart = { type: 'start', worker: 0, keyPrefix: spec.keyPrefix, productId: spec.productId, strategy: spec.strategy, quantity: 1, requests: 1, inFlight: 1, lockWaitTimeoutMs: 30_000, freezeAt };
    child.send(start);
    await ready;
    child.send({ type: 'go' });
    let finished = false;
    void done.then(() => (finished = true));
    await until(async () => existsSync(freezeAt.frozenFile) || finished, `the order froze at ${spec.at}`, 30_000);
    if (!existsSync(freezeAt.frozenFile)) throw new Error(`the order finished without reaching ${spec.at}`);
    return {
      wake: async () => {
        try {
          writeFileSync(freezeAt.wakeFile, '');
          const { outcomes, errors } = await done;
          if (errors.length) throw new Error(`the frozen order failed: ${errors.join('; ')}`);
          return (Object.keys(outcomes) as OrderOutcome[]).find((outcome) => outcomes[outcome] === 1)!;
        } finally {
          cleanup();
        }
      },
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}
