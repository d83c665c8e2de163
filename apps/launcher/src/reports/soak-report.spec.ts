import type { RunView } from '@oversell/contracts';
import { soakMarkdown, soakRun, soakVerdict, type SoakReport, type SoakRun, type SoakSample } from './soak-report';

const sample = (minute: number, instance: string, rssMb: number, pid = 1): SoakSample => ({ minute, instance, pid, rssMb, heapTotalMb: 50, heapUsedMb: 40, externalMb: 5, eventLoopP99Ms: 12.3 });
const clean = (strategy: string): SoakRun => ({ strategy, runId: `run-${strategy}`, status: 'completed', failure: null, attempts: 1000, sold: 500, errors: 0, oversold: 0, lost: 0 });
/** Two instances over 3 minutes: growing to minute 1, then within 10 % of it. */
const FLAT = [sample(0, 'i0', 60), sample(1, 'i0', 100), sample(2, 'i0', 108), sample(3, 'i0', 95), sample(0, 'i1', 60), sample(1, 'i1', 90), sample(2, 'i1', 99), sample(3, 'i1', 90)];

describe('soakVerdict', () => {
  it('meets the target: RSS within ±10 % of minute 1 (minute 0 does not count), no errors, nothing lost or oversold', () => {
    const verdict = soakVerdict(FLAT, [clean('lua-decrement'), clean('uuid-lua')]);
    expect(verdict).toMatchObject({ rssFlat: true, errors: 0, lost: 0, oversold: 0, failedRuns: 0, met: true });
    expect(verdict.rssDrift).toEqual({ i0: 0.08, i1: 0.1 });
  });

  it('fails on RSS that keeps growing past 10 % of minute 1', () => {
    const verdict = soakVerdict([...FLAT, sample(4, 'i1', 100)], [clean('lua-decrement')]);
    expect(verdict).toMatchObject({ rssFlat: false, met: false });
    expect(verdict.rssDrift.i1).toBeCloseTo(0.111, 3);
  });

  it('fails on a restarted instance (its memory started over), and when too short to judge', () => {
    expect(soakVerdict([...FLAT, sample(4, 'i0', 100, 2)], [clean('lua-decrement')]).rssFlat).toBe(false);
    expect(soakVerdict([sample(0, 'i0', 60), sample(1, 'i0', 100)], [clean('lua-decrement')])).toMatchObject({ rssDrift: { i0: null }, rssFlat: false, met: false });
  });

  it('sums errors, lost and oversold over the runs, and counts failed runs', () => {
    const runs = [clean('a'), { ...clean('b'), errors: 2, lost: 1 }, { ...clean('c'), oversold: 3, status: 'failed' as const, failure: 'boom' }];
    expect(soakVerdict(FLAT, runs)).toMatchObject({ errors: 2, lost: 1, oversold: 3, failedRuns: 1, rssFlat: true, met: false });
  });
});

describe('soakRun', () => {
  it('takes a run\'s errors, sold, lost and oversold from its result', () => {
    const run = {
      id: 'r1',
      status: 'completed',
      failure: null,
      params: { strategy: 'lua-decrement' },
      result: { counts: { attempts: 9, error: 2 }, reconciliation: { sold: 5, oversold: 0, lost: 1 }, latency: { p50: 3, p99: 9 }, instances: [] },
    } as unknown as RunView;
    expect(soakRun(run)).toEqual({ strategy: 'lua-decrement', runId: 'r1', status: 'completed', failure: null, attempts: 9, sold: 5, errors: 2, oversold: 0, lost: 1 });
  });
});

describe('soakMarkdown', () => {
  it('prints RSS and loop p99 per instance per minute, each run, and the verdict', () => {
    const runs = [clean('lua-decrement')];
    const report: SoakReport = {
      command: 'npm run soak',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:03:00.000Z',
      machine: { cpus: 2, memoryGb: 4, node: 'v20' },
      settings: { minutes: 3, connections: 500, stock: 100_000, instances: 2, secondsPerStrategy: 180, strategies: ['lua-decrement'], warmupSeconds: 3 },
      samples: FLAT,
      runs,
      verdict: soakVerdict(FLAT, runs),
    };
    const markdown = soakMarkdown(report);
    expect(markdown).toContain('| minute | i0 | i1 |');
    expect(markdown).toContain('| 2 | 108.0 MB (heap 40/50, ext 5) · 12.3 ms | 99.0 MB (heap 40/50, ext 5) · 12.3 ms |');
    expect(markdown).toContain('| lua-decrement | completed | 1000 | 500 | 0 | 0 | 0 |');
    expect(markdown).toContain('RSS drift from minute 1: i0 8.0 %, i1 10.0 % (target ±10 %: flat)');
    expect(markdown).toContain('Target met.');
  });
});
