import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createHashHistory, createRootRoute, createRouter, RouterContextProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { App } from '../App';

function queryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/**
 * Renders one component with a fresh query client that never retries (so errors show at once), and a
 * router on the page's hash (as the app's) that its links and navigation use; rendered at once, not
 * after a route load.
 */
export function renderWithClient(ui: ReactElement) {
  const client = queryClient();
  const router = createRouter({ routeTree: createRootRoute(), history: createHashHistory() });
  return {
    client,
    router,
    ...render(
      <QueryClientProvider client={client}>
        <RouterContextProvider router={router}>{ui}</RouterContextProvider>
      </QueryClientProvider>,
    ),
  };
}

/**
 * Renders the whole dashboard at `hash` (`#/lab/run-1`), on the page's own hash as in a browser. The
 * router matches the address after the first render: find the view's content, do not get it at once.
 */
export function renderApp(hash: string, wrap: (app: ReactElement) => ReactElement = (app) => app) {
  window.location.hash = hash;
  const client = queryClient();
  return { client, ...render(<QueryClientProvider client={client}>{wrap(<App />)}</QueryClientProvider>) };
}
