import { vi } from 'vitest';

/** One stubbed endpoint: a method and path (no /api prefix, query included) and what it answers. */
export interface Route {
  method?: string;
  path: string;
  status?: number;
  /** The answer; a function is called for each request, so repeated requests can get different answers. */
  body: unknown;
}

export interface FakeApi {
  /** Requests seen, as "METHOD path" with their parsed JSON body. */
  requests: { method: string; path: string; body: unknown }[];
  /** Replaces or adds a route (later calls win). */
  route: (route: Route) => void;
}

/**
 * Stubs fetch with a tiny router over the dashboard's relative API URLs. Unknown paths answer 404 with
 * an API error body, so a test that forgot a route fails visibly instead of hanging.
 */
export function fakeApi(routes: Route[]): FakeApi {
  const table = [...routes];
  const api: FakeApi = {
    requests: [],
    route: (route) => table.unshift(route),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = input.replace(/^api\//, '');
      api.requests.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const match = table.find((r) => (r.method ?? 'GET') === method && r.path === path);
      if (!match) {
        return new Response(JSON.stringify({ statusCode: 404, error: 'not_found', message: `no route ${method} ${path}` }), {
          status: 404,
        });
      }
      const body: unknown = typeof match.body === 'function' ? (match.body as () => unknown)() : match.body;
      // A 204 carries no body at all (a Response refuses one).
      return new Response(match.status === 204 ? null : JSON.stringify(body), { status: match.status ?? 200 });
    }),
  );
  return api;
}
