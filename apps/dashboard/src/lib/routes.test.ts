import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref, type Route } from './routes';

describe('routes', () => {
  it('reads every view from the hash, defaulting to the lab', () => {
    expect(parseRoute('')).toEqual({ view: 'lab' });
    expect(parseRoute('#/nowhere')).toEqual({ view: 'lab' });
    expect(parseRoute('#/lab/r%201')).toEqual({ view: 'lab', runId: 'r 1' });
    expect(parseRoute('#/compare')).toEqual({ view: 'compare' });
    expect(parseRoute('#/explain')).toEqual({ view: 'explain' });
    expect(parseRoute('#/glossary')).toEqual({ view: 'glossary' });
    expect(parseRoute('#/runs')).toEqual({ view: 'history' });
    expect(parseRoute('#/runs/abc')).toEqual({ view: 'run', runId: 'abc' });
    expect(parseRoute('#/pitfalls')).toEqual({ view: 'pitfalls' });
    expect(parseRoute('#/pitfalls/mis-deletion')).toEqual({ view: 'pitfalls', preset: 'mis-deletion' });
    expect(parseRoute('#/pitfalls/mis-deletion/r1,r2')).toEqual({ view: 'pitfalls', preset: 'mis-deletion', runIds: ['r1', 'r2'] });
  });

  it('writes hashes that read back as the same route', () => {
    const routes: Route[] = [
      { view: 'lab', runId: 'r 1' },
      { view: 'run', runId: 'x' },
      { view: 'history' },
      { view: 'compare' },
      { view: 'glossary' },
      { view: 'pitfalls' },
      { view: 'pitfalls', preset: 'double-click', runIds: ['a', 'b'] },
    ];
    for (const route of routes) {
      expect(parseRoute(routeHref(route))).toEqual(route);
    }
  });
});
