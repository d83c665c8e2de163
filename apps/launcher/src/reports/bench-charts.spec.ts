import { benchReportFixture, benchRowFixture, phaseFixture } from '../testing/bench-fixtures';
import { p99Chart, renderSvg, scalingChart, throughputChart } from './bench-charts';

/** The aria-labels vega writes on the SVG's marks: each names the mark's figures ("strategy: x; per second: 3202; …"). */
function ariaLabels(svg: string): string[] {
  return [...svg.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

/** The labels of the marks of one class (e.g. 'mark-rect', 'mark-rule') in the SVG's plotted marks (not axes or legend). */
function markLabels(svg: string, markClass: string): string[] {
  const groups = [...svg.matchAll(new RegExp(`<g class="${markClass} role-mark[^"]*"[^>]*>(.*?)</g>`, 'gs'))].map((m) => m[1]);
  return groups.flatMap((group) => ariaLabels(group));
}

const ceiling = benchRowFixture('noop', { throughput: 3933.4, p99: 40, contendedPhase: null });
const report = benchReportFixture(
  [
    benchRowFixture('lua-decrement', { throughput: 3202, p99: 45, contendedPhase: phaseFixture(1500, 12) }),
    benchRowFixture('watchdog', { throughput: 610, p99: 5200, contendedPhase: phaseFixture(300, 900) }),
    benchRowFixture('db-optimistic', { throughput: 126, p99: 80, contendedPhase: phaseFixture(22, 70, false) }),
    { ...benchRowFixture('naive-setnx', { throughput: 0, p99: 0, contendedPhase: null }), status: 'failed', failure: 'lab died' },
  ],
  ceiling,
);

describe('throughputChart', () => {
  it('draws a bar per strategy for the whole run and the contended phase, and the ceiling as a rule at its figure', async () => {
    const svg = await renderSvg(throughputChart(report));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(markLabels(svg, 'mark-rect')).toEqual([
      'strategy: lua-decrement; per second: 3202; measure: req/s, whole run',
      'strategy: lua-decrement; per second: 1500; measure: units/s, contended phase',
      'strategy: watchdog; per second: 610; measure: req/s, whole run',
      'strategy: watchdog; per second: 300; measure: units/s, contended phase',
      'strategy: db-optimistic; per second: 126; measure: req/s, whole run',
      'strategy: db-optimistic; per second: 22; measure: units/s, contended phase',
    ]);
    expect(markLabels(svg, 'mark-rule')).toEqual(['ceiling: 3933']);
    expect(svg).toContain('no-op ceiling 3933 req/s');
    // The failed run has no bar: a zero would read as a measured figure.
    expect(svg).not.toContain('naive-setnx');
  });

  it('draws no ceiling line when the bench measured none', async () => {
    const svg = await renderSvg(throughputChart({ ...report, ceiling: null }));
    expect(markLabels(svg, 'mark-rule')).toEqual([]);
    expect(markLabels(svg, 'mark-rect')).toHaveLength(6);
  });
});

describe('p99Chart', () => {
  it("draws each strategy's p99, the whole run's beside the contended phase's", async () => {
    const svg = await renderSvg(p99Chart(report));
    expect(markLabels(svg, 'mark-rect')).toEqual([
      'strategy: lua-decrement; ms (log scale): 45; measure: p99, whole run',
      'strategy: lua-decrement; ms (log scale): 12; measure: p99, contended phase',
      'strategy: watchdog; ms (log scale): 5200; measure: p99, whole run',
      'strategy: watchdog; ms (log scale): 900; measure: p99, contended phase',
      'strategy: db-optimistic; ms (log scale): 80; measure: p99, whole run',
      'strategy: db-optimistic; ms (log scale): 70; measure: p99, contended phase',
    ]);
  });
});

describe('scalingChart', () => {
  it("draws each strategy's curve and the ceiling's over the instance counts", async () => {
    const at = (instances: number, factor: number) =>
      benchReportFixture(
        [benchRowFixture('lua-decrement', { throughput: 1000 * factor, p99: 10, contendedPhase: phaseFixture(500 * factor, 5) })],
        benchRowFixture('noop', { throughput: 2000 * factor, p99: 5, contendedPhase: null }),
        instances,
      );
    const svg = await renderSvg(scalingChart({ command: 'npm run bench -- --instances 1,2', startedAt: '', finishedAt: '', runs: [at(1, 1), at(2, 1.5)] }));
    const points = markLabels(svg, 'mark-symbol');
    expect(points).toEqual(
      expect.arrayContaining([
        'instances: 1; per second: 2000; series: no-op ceiling',
        'instances: 2; per second: 3000; series: no-op ceiling',
        'instances: 1; per second: 1000; series: lua-decrement',
        'instances: 2; per second: 1500; series: lua-decrement',
        'instances: 1; per second: 500; series: lua-decrement',
        'instances: 2; per second: 750; series: lua-decrement',
      ]),
    );
    expect(points).toHaveLength(6);
  });
});
