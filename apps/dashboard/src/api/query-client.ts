import { QueryClient } from '@tanstack/react-query';
import { ApiError, ServiceUnreachableError } from './client';

/**
 * One retry for a hiccup; none when the service said no (4xx) or is plainly not there, so the
 * "cannot reach the order service" notice shows at once instead of after a back-off.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          failures < 1 && !(error instanceof ServiceUnreachableError) && !(error instanceof ApiError && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}
