import { useTranslation } from 'react-i18next';
import { ApiError, ServiceUnreachableError } from '../api/client';

interface ServiceErrorProps {
  error: Error;
  /** What failed, to complete "Could not …", e.g. "load the strategies" (errors.action.*, translated). */
  action: string;
  onRetry?: () => void;
}

/** A failed request, said plainly; a service that is down gets the hint to start it. */
export function ServiceError({ error, action, onRetry }: ServiceErrorProps) {
  const { t } = useTranslation();
  if (error instanceof ServiceUnreachableError) {
    return (
      <div className="notice notice--error" role="alert" data-testid="service-unreachable">
        <strong>{t('errors.unreachableTitle')}</strong>
        {t('errors.unreachableBody', { action, reason: t(`errors.reason.${error.reason}`, { status: error.status ?? 0 }), command: 'npm start' })}
        {onRetry && <RetryButton onRetry={onRetry} />}
      </div>
    );
  }
  return (
    <div className="notice notice--error" role="alert" data-testid="api-error">
      <strong>{t('errors.couldNot', { action })}</strong> {error instanceof ApiError ? `${error.body.error}: ${error.message}` : error.message}
      {onRetry && <RetryButton onRetry={onRetry} />}
    </div>
  );
}

function RetryButton({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="button button--small" onClick={onRetry}>
      {t('common.retry')}
    </button>
  );
}
