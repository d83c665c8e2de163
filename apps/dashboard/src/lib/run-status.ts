import type { RunStatus, RunView } from '@oversell/contracts';

export function isFinished(status: RunStatus): boolean {
  return status === 'completed' || status === 'failed';
}

export function isInProgress(run: Pick<RunView, 'status'>): boolean {
  return !isFinished(run.status);
}

const PROGRESS: Record<RunStatus, number> = { queued: 0, running: 1, completed: 2, failed: 2 };

/**
 * The later of two statuses of one run. The stream and the REST answer can arrive in either order;
 * a run never goes back, so the more advanced one is the current one.
 */
export function laterStatus(a: RunStatus, b: RunStatus | undefined): RunStatus {
  return b !== undefined && PROGRESS[b] > PROGRESS[a] ? b : a;
}
