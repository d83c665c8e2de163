import { useTranslation } from 'react-i18next';
import type { RunStatus } from '@oversell/contracts';

/** `testId`: another badge of the same run (the live summary's) names itself apart from the header's. */
export function RunStatusBadge({ status, failure, testId = 'run-status' }: { status: RunStatus; failure?: string | null; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`status status--${status}`} data-testid={testId} data-status={status}>
      {t(`status.${status}`)}
      {status === 'failed' && failure ? `: ${failure}` : ''}
    </span>
  );
}
