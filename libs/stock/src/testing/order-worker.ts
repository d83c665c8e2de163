/**
 * A separate OS process that places orders through its own StockModule (own Redis and MySQL
 * connections), as one service instance would. Driven by runOrdersAcrossProcesses over IPC.
 */
import 'reflect-metadata';
import { ORDER_OUTCOMES, type OrderOutcome } from '@oversell/contracts';
import { createStockTestApp } from './stock-test-app';
import { freezeHook } from './stop-the-world';
import type { WorkerDone, WorkerStart } from './concurrent-orders';

function send(message: unknown): Promise<void> {
  return new Promise((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())));
}

// One listener from the start, so a message that arrives while a run is closing is not dropped.
const inbox: { type: string }[] = [];
const waiting: (() => void)[] = [];
process.on('message', (message: { type: string }) => {
  inbox.push(message);
  waiting.splice(0).forEach((wake) => wake());
});
// The pool's parent is gone (jest exited): so is this process.
process.on('disconnect', () => process.exit(0));

async function nextMessage<T>(type: string): Promise<T> {
  for (;;) {
    const index = inbox.findIndex((message) => message.type === type);
    if (index >= 0) return inbox.splice(index, 1)[0] as T;
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

/** One run: its own StockModule (connections, fault hooks), its orders, its figures. */
async function placeOrders(start: WorkerStart): Promise<void> {
  const stock = await createStockTestApp({
    keyPrefix: start.keyPrefix,
    instanceId: `worker-${start.worker}`,
    lockWaitTimeoutMs: start.lockWaitTimeoutMs,
    faultHooks: [
      ...(start.crashAt ? [(point: string) => void (point === start.crashAt && process.kill(process.pid, 'SIGKILL'))] : []),
      ...(start.freezeAt ? [freezeHook(start.freezeAt)] : []),
    ],
  });
  const outcomes = Object.fromEntries(ORDER_OUTCOMES.map((o) => [o, 0])) as Record<OrderOutcome, number>;
  let conflicts = 0;
  const errors: string[] = [];
  // Warm both pools so the first orders race each other, not the connection handshakes.
  await stock.inventory.inventory(start.productId);
  await send({ type: 'ready' });
  await nextMessage('go');

  let issued = 0;
  const client = async () => {
    while (issued < start.requests) {
      issued++;
      try {
        const { result } = await stock.placement.place({ productId: start.productId, quantity: start.quantity, strategy: start.strategy });
        outcomes[result.outcome]++;
        if (result.outcome !== 'error') conflicts += result.conflicts ?? 0;
        if (result.outcome === 'error' && errors.length < 5) errors.push(result.error.message);
      } catch (error) {
        outcomes.error++;
        if (errors.length < 5) errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: start.inFlight }, client));
  await stock.close();
  await send({ type: 'done', outcomes, conflicts, errors } satisfies WorkerDone);
}

/** Loading the modules costs seconds of CPU; the process serves run after run (runOrdersAcrossProcesses' pool). */
async function main(): Promise<void> {
  for (;;) await placeOrders(await nextMessage<WorkerStart>('start'));
}

main().catch(async (error) => {
  await send({ type: 'failed', message: error instanceof Error ? error.stack : String(error) }).catch(() => undefined);
  process.exit(1);
});
