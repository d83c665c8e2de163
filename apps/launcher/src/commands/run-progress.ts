import type { RunView } from '@oversell/contracts';
import { SingleBar } from 'cli-progress';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LabClient } from '../lab/lab-client';

const POLL_MS = 500;
/**
 * Polls in a row that may fail before the run is given up on: a crash fault kills an instance, and until
 * the launcher notices, the gateway may hand a poll to it (reset, refused). A poll changes nothing, so it is retried.
 */
const FAILED_POLLS_TOLERATED = 20;

/** Polls a queued run until it has ended (completed or failed). */
export async function runEnded(client: LabClient, run: RunView): Promise<RunView> {
  let current = run;
  let failedPolls = 0;
  while (current.status === 'queued' || current.status === 'running') {
    await sleep(POLL_MS);
    try {
      current = await client.run(run.id);
      failedPolls = 0;
    } catch (error) {
      if (++failedPolls > FAILED_POLLS_TOLERATED) throw error;
    }
  }
  return current;
}

export interface RunProgress {
  running(label: string): void;
  ended(label: string, run: Pick<RunView, 'status' | 'failure'>): void;
  stop(): void;
}

/**
 * How far a batch of runs got: a bar on a terminal, one line per ended run otherwise (CI logs, pipes),
 * where a redrawn bar would be noise.
 */
export function runProgress(name: string, total: number, terminal: NodeJS.WriteStream, printLine: (line: string) => void): RunProgress {
  const bar = terminal.isTTY ? new SingleBar({ format: `${name} [{bar}] {value}/{total} runs | {current}`, hideCursor: true, stream: terminal }) : null;
  let done = 0;
  bar?.start(total, 0, { current: '' });
  return {
    running: (label) => bar?.update(done, { current: `${label} running` }),
    ended: (label, run) => {
      done += 1;
      bar?.update(done, { current: `${label} ${run.status}` });
      if (!bar) printLine(`${name}: ${done}/${total} ${label} ${run.status}${run.failure ? ` (${run.failure})` : ''}`);
    },
    stop: () => bar?.stop(),
  };
}

/** Follows queued runs to their end, one after another, with the progress on `terminal` (lines to `printLine` when it is not one). */
export async function followRuns(name: string, client: LabClient, queued: readonly RunView[], terminal: NodeJS.WriteStream, printLine: (line: string) => void): Promise<RunView[]> {
  const progress = runProgress(name, queued.length, terminal, printLine);
  const done: RunView[] = [];
  try {
    for (const run of queued) {
      progress.running(run.params.strategy);
      done.push(await runEnded(client, run));
      progress.ended(run.params.strategy, done[done.length - 1]);
    }
  } finally {
    progress.stop();
  }
  return done;
}
