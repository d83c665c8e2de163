import { runLoad } from './run-load';
import type { ChildMessage, StartMessage } from './ipc';

/**
 * The child side of forkLoad: waits for one `start`, runs it, reports over the IPC channel, then lets
 * the process end. If the parent goes away mid-run the load is stopped rather than left running.
 */
export function serveLoadOverIpc(): Promise<void> {
  if (!process.send) throw new Error('--ipc needs an IPC channel: start this process with child_process.fork');
  return new Promise((resolve) => {
    process.once('message', async (message: StartMessage) => {
      const stopped = new AbortController();
      process.once('disconnect', () => stopped.abort());
      try {
        if (message?.type !== 'start') throw new Error(`expected a {type:'start'} message, got ${JSON.stringify(message)}`);
        const before = process.cpuUsage();
        const summary = await runLoad({
          ...message.options,
          onTick: (stats) => void send({ type: 'tick', stats }),
          signal: stopped.signal,
        });
        const spent = process.cpuUsage(before);
        await send({ type: 'done', summary: { ...summary, cpuMs: (spent.user + spent.system) / 1000 } });
      } catch (error) {
        await send({ type: 'error', message: (error as Error).message });
      }
      if (process.connected) process.disconnect();
      resolve();
    });
  });
}

/** Resolves once the message is handed to the channel, so `done` is not lost when the process exits. */
function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send?.(message, undefined, undefined, () => resolve());
  });
}
