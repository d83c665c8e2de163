import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref } from './routes';

describe('routes', () => {
  it('reads every view from the hash, defaulting to the lab', () => {
    expect(parseRoute('')).toEqual({ view: 'lab' });
    expect(parseRoute('#/nowhere')).toEqual({ view: 'lab' });
    expect(parseRoute('#/lab/r%201')).toEqual({ view: 'lab', runId: 'r 1' });
    expect(parseRoute('#/compare')).toEqual({ view: 'compare' });
    expect(parseRoute('#/explain')).toEqual({ view: 'explain' });
    expect(parseRoute('#/runs')).toEqual({ view: 'history' });
    expect(parseRoute('#/runs/abc')).toEqual({ view: 'run', runId: 'abc' });
  });

  it('writes hashes that read back as the same route', () => {
    for (const route of [{ view: 'lab', runId: 'r 1' }, { view: 'run', runId: 'x' }, { view: 'history' }, { view: 'compare' }] as const) {
      expect(parseRoute(routeHref(route))).toEqual(route);
    }
  });
});
