/** The dashboard's views, addressed by URL hash so a reload (or a shared link) keeps the view. */
export type Route =
  | { view: 'lab'; runId?: string }
  | { view: 'compare' }
  | { view: 'explain' }
  | { view: 'history' }
  | { view: 'glossary' }
  | { view: 'run'; runId: string }
  /** A pitfall preset and, once queued, the runs of its sides in the preset's order. */
  | { view: 'pitfalls'; preset?: string; runIds?: string[] };

export function parseRoute(hash: string): Route {
  const [view, id, more] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  switch (view) {
    case 'pitfalls':
      if (!id) return { view };
      return more ? { view, preset: id, runIds: more.split(',') } : { view, preset: id };
    case 'compare':
    case 'explain':
    case 'glossary':
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
    case 'pitfalls': {
      if (!route.preset) return '#/pitfalls';
      const preset = `#/pitfalls/${encodeURIComponent(route.preset)}`;
      return route.runIds?.length ? `${preset}/${route.runIds.map(encodeURIComponent).join(',')}` : preset;
    }
    default:
      return `#/${route.view}`;
  }
}
