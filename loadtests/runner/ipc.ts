import type { LoadOptions, LoadSummary, LoadTick } from './summary';

/** The one message the parent sends: what to run. */
export interface StartMessage {
  type: 'start';
  options: LoadOptions;
}

/** What the child reports: a tick about once per second, then either `done` or `error`, then it exits. */
export type ChildMessage =
  | { type: 'tick'; stats: LoadTick }
  | { type: 'done'; summary: LoadSummary }
  | { type: 'error'; message: string };
