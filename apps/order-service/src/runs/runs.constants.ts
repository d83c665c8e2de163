export const RUNS_QUEUE = 'runs';

export interface RunJobData {
  runId: string;
}
