/**
 * The bench's figures as SVG charts, drawn without a browser: Vega-Lite compiles each chart to a Vega
 * spec, and a headless Vega View (renderer 'none') writes it as SVG. Every mark carries an aria-label
 * with its figures, so a chart can be checked (and read by a screen reader) without looking at it.
 */
import type { BenchReport } from '@oversell/contracts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { benchRowLabel } from './bench-report';
import type { ScalingReport } from './bench-scaling-report';

/** One bar's figure: a strategy's value of one measure (the whole run's, or the contended phase's). */
interface StrategyValue {
  strategy: string;
  measure: string;
  value: number;
}

type Row = BenchReport['rows'][number];
/** A layer of a layered chart, as vega-lite types it. */
type Layer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];
type Phase = NonNullable<Row['contendedPhase']>;

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Completed strategies' figures in the bench's order, the whole run's beside the contended phase's when the run has one. */
function strategyValues(report: BenchReport, measures: [string, string], whole: (r: Row) => number, phase: (p: Phase) => number): StrategyValue[] {
  return report.rows
    .filter((r) => r.status === 'completed')
    .flatMap((r) => [
      { strategy: benchRowLabel(r), measure: measures[0], value: whole(r) },
      ...(r.contendedPhase ? [{ strategy: benchRowLabel(r), measure: measures[1], value: phase(r.contendedPhase) }] : []),
    ]);
}

/** Grouped bars, one group per strategy, one bar per measure. */
function strategyBars(values: StrategyValue[], measures: [string, string], yTitle: string, yScaleType: 'linear' | 'log'): Layer {
  return {
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'strategy', type: 'nominal', sort: null, axis: { labelAngle: -30 }, title: null },
      xOffset: { field: 'measure', sort: measures },
      // Not stacked: the bars of a group stand side by side, and a log scale has no zero to stack on.
      y: { field: 'value', type: 'quantitative', title: yTitle, scale: { type: yScaleType }, stack: null },
      color: { field: 'measure', type: 'nominal', sort: measures, title: null, legend: { orient: 'top', labelLimit: 0 } },
    },
  };
}

function subtitle(report: BenchReport): string {
  const s = report.settings;
  const bound = s.durationSec ? `${s.durationSec} s` : `${s.totalRequests} requests`;
  return `${report.scenario}: stock ${s.initialStock}, ${s.connections} connections, ${bound}; ${report.instances} instances; ${report.machine.cpus} cores`;
}

/** The no-op ceiling as a dashed line across the bars, labelled with its figure. */
function ceilingLine(ceiling: number): Layer {
  const y = { field: 'ceiling', type: 'quantitative' } as const;
  return {
    data: { values: [{ ceiling, label: `no-op ceiling ${ceiling} req/s` }] },
    layer: [
      { mark: { type: 'rule', strokeDash: [6, 4], color: 'firebrick' }, encoding: { y } },
      // At the right end, above the line: over the bars it would be hidden.
      { mark: { type: 'text', align: 'right', dy: -6, x: 'width', color: 'firebrick' }, encoding: { y, text: { field: 'label' } } },
    ],
  };
}

const THROUGHPUT_MEASURES: [string, string] = ['req/s, whole run', 'units/s, contended phase'];
const P99_MEASURES: [string, string] = ['p99, whole run', 'p99, contended phase'];

/** Requests/s over the whole run and units/s in the contended phase per strategy, under the no-op ceiling's line. */
export function throughputChart(report: BenchReport): TopLevelSpec {
  const values = strategyValues(report, THROUGHPUT_MEASURES, (r) => Math.round(r.throughput), (p) => Math.round(p.unitsPerSec));
  const bars = strategyBars(values, THROUGHPUT_MEASURES, 'per second', 'linear');
  return {
    title: { text: 'Throughput per strategy', subtitle: subtitle(report) },
    width: { step: 36 },
    height: 260,
    layer: report.ceiling ? [bars, ceilingLine(Math.round(report.ceiling.throughput))] : [bars],
  };
}

/** p99 latency per strategy, the whole run's beside the contended phase's, on a log axis: they span ms to seconds. */
export function p99Chart(report: BenchReport): TopLevelSpec {
  const values = strategyValues(report, P99_MEASURES, (r) => r.p99, (p) => p.p99);
  return {
    title: { text: 'p99 latency per strategy', subtitle: subtitle(report) },
    width: { step: 36 },
    height: 260,
    layer: [strategyBars(values, P99_MEASURES, 'ms (log scale)', 'log')],
  };
}

/** One point of the scaling curve: a series (a strategy, or the no-op ceiling) at an instance count. */
interface ScalingPoint {
  instances: number;
  series: string;
  measure: string;
  value: number;
}

function scalingPoints(report: ScalingReport): ScalingPoint[] {
  return report.runs.flatMap((run) => [
    ...(run.ceiling ? [{ instances: run.instances, series: 'no-op ceiling', measure: THROUGHPUT_MEASURES[0], value: Math.round(run.ceiling.throughput) }] : []),
    ...strategyValues(run, THROUGHPUT_MEASURES, (r) => Math.round(r.throughput), (p) => Math.round(p.unitsPerSec)).map((v) => ({
      instances: run.instances,
      series: v.strategy,
      measure: v.measure,
      value: v.value,
    })),
  ]);
}

/** Per instance count: each strategy's req/s beside the no-op ceiling's, and its units/s in the contended phase. */
export function scalingChart(report: ScalingReport): TopLevelSpec {
  const first = report.runs[0];
  return {
    title: { text: 'Scaling with instances', subtitle: first ? `${first.scenario}, ${first.machine.cpus} cores shared by every instance` : '' },
    data: { values: scalingPoints(report) },
    facet: { column: { field: 'measure', type: 'nominal', title: null, sort: THROUGHPUT_MEASURES } },
    spec: {
      width: 260,
      height: 220,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'instances', type: 'ordinal', axis: { labelAngle: 0 } },
        y: { field: 'value', type: 'quantitative', title: 'per second' },
        color: { field: 'series', type: 'nominal', title: null },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

async function writeSvgs(outDir: string, charts: Record<string, TopLevelSpec>): Promise<string[]> {
  const files: string[] = [];
  for (const [name, spec] of Object.entries(charts)) {
    const file = join(outDir, `${name}.svg`);
    writeFileSync(file, await renderSvg(spec));
    files.push(file);
  }
  return files;
}

/** Writes `<stem>-throughput.svg` and `<stem>-p99.svg` next to the bench's JSON; returns their paths. */
export function writeBenchCharts(outDir: string, stem: string, report: BenchReport): Promise<string[]> {
  return writeSvgs(outDir, { [`${stem}-throughput`]: throughputChart(report), [`${stem}-p99`]: p99Chart(report) });
}

/** Writes `<stem>-scaling.svg` next to the scaling run's JSON; returns its path. */
export function writeScalingChart(outDir: string, stem: string, report: ScalingReport): Promise<string[]> {
  return writeSvgs(outDir, { [`${stem}-scaling`]: scalingChart(report) });
}
