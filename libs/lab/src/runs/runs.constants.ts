export const RUNS_QUEUE = 'runs';

export interface RunJobData {
  runId: string;
  /** What the run's load tools send as x-run-token; only requests carrying it count in the run. */
  runToken: string;
}
