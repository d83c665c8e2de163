import type { ReactNode } from 'react';
import { BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis, type YAxisProps } from 'recharts';
import { ChartBox } from './ChartBox';

/** Room under the charts for the slanted strategy names (the longest, lua-decrement), clear of the legend. */
const STRATEGY_AXIS_HEIGHT = 84;
/** Tall enough that, under the slanted names and the legend, the bars still have room for every tick. */
const CHART_HEIGHT = 300;

interface StrategyBarChartProps<Row> {
  title: string;
  hint: string;
  testId: string;
  rows: Row[];
  yAxis: YAxisProps;
  /** The <Bar>s to draw. */
  children: ReactNode;
}

/** One bar chart of the compare view: one group of bars per strategy, the same frame for every figure. */
export function StrategyBarChart<Row extends { strategy: string }>({ title, hint, testId, rows, yAxis, children }: StrategyBarChartProps<Row>) {
  return (
    <ChartBox title={title} hint={hint} testId={testId} height={CHART_HEIGHT}>
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="strategy" interval={0} angle={-30} textAnchor="end" height={STRATEGY_AXIS_HEIGHT} />
        <YAxis {...yAxis} />
        <Tooltip />
        {/* Every chart has a legend, so the three charts' axes line up. */}
        <Legend itemSorter={null} />
        {children}
      </BarChart>
    </ChartBox>
  );
}
