/** The dashboard's views, addressed by URL hash so a reload (or a shared link) keeps the view. */
export type Route =
  | { view: 'lab'; runId?: string }
  | { view: 'compare' }
  | { view: 'explain' }
  | { view: 'history' }
  | { view: 'run'; runId: string };

export function parseRoute(hash: string): Route {
  const [view, id] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  switch (view) {
    case 'compare':
    case 'explain':
      return { view };
    case 'runs':
      return id ? { view: 'run', runId: id } : { view: 'history' };
    case 'lab':
      return id ? { view: 'lab', runId: id } : { view: 'lab' };
    default:
      return { view: 'lab' };
  }
}

export function routeHref(route: Route): string {
  switch (route.view) {
    case 'lab':
      return route.runId ? `#/lab/${encodeURIComponent(route.runId)}` : '#/lab';
    case 'run':
      return `#/runs/${encodeURIComponent(route.runId)}`;
    case 'history':
      return '#/runs';
    default:
      return `#/${route.view}`;
  }
}
