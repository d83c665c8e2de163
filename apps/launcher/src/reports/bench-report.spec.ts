import type { BenchReport, BenchRow, ContendedPhase, RoundTripBound } from '@oversell/contracts';
import { benchTrouble, cpuShares, markdownTable, withCeiling, withCeilingShare, withGatewayShares } from './bench-report';
import { benchReportFixture, benchRowFixture, tableCells as cells } from '../testing/bench-fixtures';

const row = (strategy: BenchRow['strategy'], contendedPhase: ContendedPhase | null, roundTrip: RoundTripBound | null = null): BenchRow => ({
  ...benchRowFixture(strategy, { throughput: 500, p99: 2, contendedPhase }),
  runId: strategy,
  ratioToCeiling: 0.5,
  roundTrip,
});

const report = (rows: BenchRow[]): BenchReport => ({
  ...benchReportFixture(rows, null, 1),
  startedAt: '',
  finishedAt: '',
  machine: { cpus: 2, memoryGb: 4, node: 'v22' },
  settings: { initialStock: 100, connections: 10, durationSec: 8, orderWrites: ['sync'] },
});

describe('cpuShares', () => {
  it('sums each role over its processes and divides by the requests and the units sold, in µs', () => {
    const cpu = {
      windowMs: 5000,
      processes: [
        { role: 'load-tool' as const, name: 'node', cpuMs: 900 },
        { role: 'instance' as const, name: 'instance-1', cpuMs: 1200 },
        { role: 'instance' as const, name: 'instance-2', cpuMs: 800 },
        { role: 'redis' as const, name: '127.0.0.1', cpuMs: 300 },
      ],
    };
    expect(cpuShares(cpu, 10_000, 1000)).toEqual({
      perRequestUs: { 'load-tool': 90, instance: 200, redis: 30 },
      perUnitUs: { 'load-tool': 900, instance: 2000, redis: 300 },
    });
    // A no-op sells nothing: no per-unit figure rather than a division by zero.
    expect(cpuShares(cpu, 10_000, 0).perUnitUs).toEqual({});
  });
});

describe('markdownTable', () => {
  it('says where each row\'s CPU went, process by process, with a dash for a process it could not read', () => {
    const markdown = markdownTable(report([{ ...row('lua-decrement', null), cpu: { perRequestUs: { 'load-tool': 90, instance: 200, redis: 30 }, perUnitUs: { 'load-tool': 900, instance: 2000, redis: 300 } } }]));
    expect(markdown).toContain('| lua-decrement | 90 | 200 | 30 | – | 320 | 3200 |');
  });


  it('names a strategy whose orders went through the queue apart from its synchronous row, and says how orders were written', () => {
    const markdown = markdownTable({
      ...report([row('lua-decrement', null), { ...row('lua-decrement', null), orderWrite: 'queued', throughput: 900 }]),
      settings: { initialStock: 100, connections: 10, durationSec: 8, orderWrites: ['sync', 'queued'] },
    });
    expect(cells(markdown, 'lua-decrement')).toMatchObject({ 'req/s': '500' });
    expect(cells(markdown, 'lua-decrement (queued)')).toMatchObject({ 'req/s': '900' });
    expect(markdown).toMatch(/orders written sync and queued;/);
  });

  it('prints the contended phase beside the whole run: sell-out time, units/s, p50 and p99 in the phase', () => {
    const markdown = markdownTable(
      report([
        row('lua-decrement', { soldOut: true, durationMs: 2000, attempts: 300, units: 100, unitsPerSec: 50, p50: 3, p99: 9.5 }),
        row('db-optimistic', { soldOut: false, durationMs: 8000, attempts: 900, units: 40, unitsPerSec: 5, p50: 30, p99: 90 }),
        row('watchdog', null),
      ]),
    );
    expect(cells(markdown, 'lua-decrement')).toMatchObject({ 'req/s': '500', 'sell-out s': '2', 'units/s in phase': '50', 'phase p50 ms': '3', 'phase p99 ms': '9.5', 'peak RSS MB/instance': '100' });
    expect(cells(markdown, 'db-optimistic')).toMatchObject({ 'sell-out s': 'never sold out', 'units/s in phase': '5', 'phase p50 ms': '30', 'phase p99 ms': '90' });
    expect(cells(markdown, 'watchdog')).toMatchObject({ 'sell-out s': '–', 'units/s in phase': '–', 'phase p50 ms': '–', 'phase p99 ms': '–', 'uncontended section ms': '–' });
  });

  it('says under the table which rows were answered with errors, and counts them as trouble (the bench exits 1)', () => {
    // A lock service out of reach: every order answered 503, fast, and nothing sold.
    const broken = { ...row('etcd', null), sold: 0, attempts: 9000, errors: 9000, throughput: 2690 };
    const bench = report([broken, row('lua-decrement', null)]);
    expect(markdownTable(bench)).toContain('**etcd: 9000 of 9000 requests answered with an error**');
    expect(markdownTable(report([row('lua-decrement', null)]))).not.toContain('answered with an error');
    expect(benchTrouble(bench).map((r) => r.strategy)).toEqual(['etcd']);
    expect(benchTrouble(report([row('lua-decrement', null), { ...row('watchdog', null), status: 'failed' }])).map((r) => r.strategy)).toEqual(['watchdog']);
  });
});

describe('round-trip columns', () => {
  it('prints a lock strategy’s uncontended section, its bound and the contended phase’s share of it; dashes elsewhere', () => {
    const markdown = markdownTable(
      report([
        row('watchdog', null, { holdMs: 2.5, boundPerSec: 400, sections: 200, efficiency: 0.333 }),
        row('etcd', null, { holdMs: 50, boundPerSec: 20, sections: 40, efficiency: null }),
        row('lua-decrement', null),
      ]),
    );
    expect(cells(markdown, 'watchdog')).toMatchObject({ 'uncontended section ms': '2.5', 'round-trip bound/s': '400', 'of bound': '33 %' });
    expect(cells(markdown, 'etcd')).toMatchObject({ 'round-trip bound/s': '20', 'of bound': '–' });
    expect(cells(markdown, 'lua-decrement')).toMatchObject({ 'uncontended section ms': '–', 'round-trip bound/s': '–', 'of bound': '–' });
  });
});

describe('withCeiling', () => {
  it('keeps each row’s share of the ceiling exact, so the table rounds it once', () => {
    const { rows } = withCeiling([{ ...row('noop', null), throughput: 10_000 }, { ...row('lua-decrement', null), throughput: 7449 }]);
    expect(rows[0].ratioToCeiling).toBe(0.7449);
    // Rounded to 0.745 first, it read 75 %.
    expect(cells(markdownTable(report(rows)), 'lua-decrement')).toMatchObject({ 'of ceiling': '74 %' });
  });
});

describe('the stack’s own cost', () => {
  const ceiling = { ...row('noop', null), throughput: 1500 };

  it('is the service no-op ÷ the bare Fastify no-op, against the 50 % target', () => {
    const bare = withCeilingShare({ throughput: 4000, requests: 32_000, durationSec: 8 }, ceiling);
    expect(bare.ceilingShare).toBe(0.375);
    expect(markdownTable({ ...report([]), ceiling, bareFastify: bare })).toContain("answered 4000 req/s; the service's no-op at the instances' own ports (the ceiling) is 37 % of it (target ≥ 50 %: not met)");
    expect(markdownTable({ ...report([]), ceiling, bareFastify: withCeilingShare({ throughput: 2000, requests: 16_000, durationSec: 8 }, ceiling) })).toContain('75 % of it (target ≥ 50 %: met)');
  });

  it('judges the exact share and shows it rounded once, never up to a target it missed', () => {
    // 14 848.7 ÷ 27 253.5 = 0.54483, which read 55 % when the share was stored rounded to 0.545 first.
    const measured = { ...row('noop', null), throughput: 14_848.7 };
    const bench = (bare: number, noop: BenchRow) => markdownTable({ ...report([]), ceiling: noop, bareFastify: withCeilingShare({ throughput: bare, requests: bare * 8, durationSec: 8 }, noop) });
    expect(bench(27_253.5, measured)).toContain('is 54 % of it (target ≥ 50 %: met)');
    // 4999.8 ÷ 10 000 = 0.49998: stored as 0.5 it passed.
    expect(bench(10_000, { ...measured, throughput: 4999.8 })).toContain('is 49 % of it (target ≥ 50 %: not met)');
    expect(bench(10_000, { ...measured, throughput: 5000 })).toContain('is 50 % of it (target ≥ 50 %: met)');
    // 0.29 × 100 is 28.999999999999996 in floating point: still 29 %.
    expect(bench(10_000, { ...measured, throughput: 2900 })).toContain('is 29 % of it (target ≥ 50 %: not met)');
    expect(bench(10_000, { ...measured, throughput: 5700 })).toContain('is 57 % of it (target ≥ 50 %: met)');
  });

  it('has no share without a ceiling, and no line without a bare Fastify measurement', () => {
    expect(withCeilingShare({ throughput: 4000, requests: 32_000, durationSec: 8 }, null).ceilingShare).toBeNull();
    expect(markdownTable(report([]))).not.toContain('bare Fastify');
  });

  it('puts the no-op through the gateway beside them: a share of bare Fastify, and of the ceiling against the 50 % target', () => {
    const bare = { throughput: 4000, requests: 32_000, durationSec: 8 };
    const viaGateway = withGatewayShares({ throughput: 1000, requests: 8000, durationSec: 8 }, bare, ceiling);
    expect(viaGateway).toMatchObject({ bareShare: 0.25, ceilingShare: 1000 / 1500 });
    const markdown = markdownTable({ ...report([]), ceiling, bareFastify: withCeilingShare(bare, ceiling), throughGateway: viaGateway });
    expect(markdown).toContain("Through the gateway, where k6 and `npm run load` send by default, the service's no-op answered 1000 req/s: 25 % of it, 66 % of the ceiling (target ≥ 50 %: met).");
    // Judged exactly, as the ceiling's share is: 749.9 ÷ 1500 is below the target.
    expect(markdownTable({ ...report([]), ceiling, bareFastify: withCeilingShare(bare, ceiling), throughGateway: withGatewayShares({ ...bare, throughput: 749.9 }, bare, ceiling) })).toContain(
      '49 % of the ceiling (target ≥ 50 %: not met)',
    );
    expect(withGatewayShares(bare, null, null)).toMatchObject({ bareShare: null, ceilingShare: null });
  });
});
