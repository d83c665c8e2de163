import { describe, expect, it } from 'vitest';
import { point } from '../test/fixtures';
import { toTimelineRows, upsertTimelinePoint } from './timeline';

describe('timeline', () => {
  it('keeps points in time order and replaces a second that arrives again', () => {
    let points = upsertTimelinePoint([], point(1));
    points = upsertTimelinePoint(points, point(0));
    points = upsertTimelinePoint(points, point(2));
    points = upsertTimelinePoint(points, point(1, { attempts: 7 }));
    expect(points.map((p) => [p.t, p.attempts])).toEqual([
      [0, 100],
      [1, 7],
      [2, 100],
    ]);
  });

  it('shapes points into chart rows', () => {
    expect(toTimelineRows([point(3, { attempts: 42, soldTotal: 60, remaining: -10, p99: 8 })])).toEqual([
      { t: 3, requestsPerSec: 42, p99: 8 },
    ]);
  });
});
