import { ApiError, ServiceUnreachableError } from '../api/client';

interface ServiceErrorProps {
  error: Error;
  /** What could not be loaded, e.g. "the strategies". */
  what: string;
  onRetry?: () => void;
}

/** A failed request, said plainly; a service that is down gets the hint to start it. */
export function ServiceError({ error, what, onRetry }: ServiceErrorProps) {
  const unreachable = error instanceof ServiceUnreachableError;
  return (
    <div className="notice notice--error" role="alert" data-testid={unreachable ? 'service-unreachable' : 'api-error'}>
      <strong>{unreachable ? 'Cannot reach the order service.' : `Could not load ${what}.`}</strong>{' '}
      {unreachable
        ? `Loading ${what} failed: ${error.message} Start it (npm start at the repository root) and retry.`
        : error instanceof ApiError
          ? `${error.body.error}: ${error.message}`
          : error.message}
      {onRetry && (
        <button type="button" className="button button--small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
