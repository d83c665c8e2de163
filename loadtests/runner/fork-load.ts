import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pinnedFork } from './cpu-pinning';
import type { ChildMessage, StartMessage } from './ipc';
import type { LoadOptions, LoadSummary, LoadTick } from './summary';

/**
 * The built CLI, next to this file in dist/. When this module is loaded from source (ts-jest, ts-node)
 * there is no cli.js beside it, so the build output is used instead.
 */
function cliPath(): string {
  const sibling = join(__dirname, 'cli.js');
  return existsSync(sibling) ? sibling : join(__dirname, '..', 'dist', 'cli.js');
}

/**
 * Runs the load in a child process (dist/cli.js --ipc) so the load generator's busy event loop is not
 * the caller's. Ticks arrive about once per second; aborting `signal` kills the child and rejects
 * with the signal's reason.
 */
export function forkLoad(options: LoadOptions, onTick?: (tick: LoadTick) => void, signal?: AbortSignal): Promise<LoadSummary> {
  signal?.throwIfAborted();
  const child = fork(cliPath(), ['--ipc'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...pinnedFork('load') });
  return new Promise<LoadSummary>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      finish();
    };
    const abort = () => {
      child.kill('SIGKILL');
      settle(() => reject(signal?.reason));
    };
    signal?.addEventListener('abort', abort, { once: true });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'tick') onTick?.(message.stats);
      else if (message.type === 'done') settle(() => resolve(message.summary));
      else settle(() => reject(new Error(`load child failed: ${message.message}`)));
    });
    child.on('error', (error) => settle(() => reject(error)));
    child.on('exit', (code, exitSignal) =>
      settle(() => reject(new Error(`load child exited (${exitSignal ?? `code ${code}`}) before reporting a summary`))),
    );
    const start: StartMessage = { type: 'start', options };
    child.send(start);
  });
}
