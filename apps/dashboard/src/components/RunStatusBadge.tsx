import { useTranslation } from 'react-i18next';
import type { RunStatus } from '@oversell/contracts';

export function RunStatusBadge({ status, failure }: { status: RunStatus; failure?: string | null }) {
  const { t } = useTranslation();
  return (
    <span className={`status status--${status}`} data-testid="run-status" data-status={status}>
      {t(`status.${status}`)}
      {status === 'failed' && failure ? `: ${failure}` : ''}
    </span>
  );
}
