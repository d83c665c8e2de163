/**
 * One OS process of a measured run: its own Redis connections and its own instance of the lock under
 * test, as one service instance would have. Driven by runAcrossProcesses over IPC.
 */
import { once } from 'node:events';
import type { ProcessDone, ProcessStart } from './across-processes';
import { connectClients } from './lock-clients';
import { LOCKS_UNDER_TEST } from './locks-under-test';
import { runSections } from './section-loop';
import { encodeWaits } from './wait-histogram';

/** Long enough to connect, load the lock's scripts and warm the loop; short enough not to matter. */
const WARMUP_SECONDS = 0.2;

const send = (message: unknown) => new Promise<void>((resolve, reject) => process.send!(message, undefined, undefined, (error) => (error ? reject(error) : resolve())));

/** The parent sends "start", then "go", each once and in that order. */
const nextMessage = async <T>() => ((await once(process, 'message')) as [T])[0];

async function main(): Promise<void> {
  const start = await nextMessage<ProcessStart>();
  const clients = await connectClients();
  const lock = LOCKS_UNDER_TEST[start.lock].create(clients);
  await runSections(lock, clients.redis, start.warmupKeys, { ...start.settings, workers: 1, seconds: WARMUP_SECONDS });
  await send({ type: 'ready' });
  await nextMessage();
  const { waits, ...tally } = await runSections(lock, clients.redis, start.keys, start.settings);
  await send({ type: 'done', ...tally, waits: encodeWaits(waits) } satisfies ProcessDone);
  await clients.close();
  process.exit(0);
}

main().catch(async (error: unknown) => {
  await send({ type: 'failed', message: error instanceof Error ? error.stack : String(error) }).catch(() => undefined);
  process.exit(1);
});
