import type { RunStatus } from '@oversell/contracts';

export function RunStatusBadge({ status, failure }: { status: RunStatus; failure?: string | null }) {
  return (
    <span className={`status status--${status}`} data-testid="run-status" data-status={status}>
      {status}
      {status === 'failed' && failure ? `: ${failure}` : ''}
    </span>
  );
}
