import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { useStockTestApp } from '../../testing';

/**
 * A service stopped right after it started (a crash loop, a deploy rolled back, a test's app) closes its
 * order-write queue while the queue's Redis connections are still starting. That must end the process
 * cleanly, not kill it: with BullMQ 5 the late "Connection is closed" was emitted with no listener left
 * and took the whole process down (it ended a CI run's stock suite).
 */
// The lab's prefix: its keys are deleted after the file.
const lab = useStockTestApp();

it('a stock app closed while its queue connections are still starting leaves the process alive and exiting 0', async () => {
  const child = fork(join(__dirname, '../../testing/open-and-close.ts'), [lab.keyPrefix, '20'], {
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../../../tsconfig.json') },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  expect({ code, signal, unhandled: /Unhandled|Connection is closed/.exec(stderr)?.[0] ?? null }).toEqual({ code: 0, signal: null, unhandled: null });
});
