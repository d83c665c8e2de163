import { ApiError, ServiceUnreachableError } from '../api/client';

interface ServiceErrorProps {
  error: Error;
  /** What failed, to complete "Could not …", e.g. "load the strategies". */
  action: string;
  onRetry?: () => void;
}

/** A failed request, said plainly; a service that is down gets the hint to start it. */
export function ServiceError({ error, action, onRetry }: ServiceErrorProps) {
  if (error instanceof ServiceUnreachableError) {
    return (
      <div className="notice notice--error" role="alert" data-testid="service-unreachable">
        <strong>Cannot reach the order service</strong>, so could not {action} ({error.reason}). Start the service
        (npm start at the repository root), then retry.
        {onRetry && <RetryButton onRetry={onRetry} />}
      </div>
    );
  }
  return (
    <div className="notice notice--error" role="alert" data-testid="api-error">
      <strong>Could not {action}.</strong> {error instanceof ApiError ? `${error.body.error}: ${error.message}` : error.message}
      {onRetry && <RetryButton onRetry={onRetry} />}
    </div>
  );
}

function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <button type="button" className="button button--small" onClick={onRetry}>
      Retry
    </button>
  );
}
