import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import type { TimelinePoint } from '@oversell/contracts';
import { numberAxis } from '../lib/axis';
import { formatTick } from '../lib/format';
import { stockPoints, type StockDrain } from '../lib/stock-points';
import { ChartBox } from './ChartBox';
import { CHART_COLORS } from './chart-colors';

interface StockChartProps {
  timeline: readonly TimelinePoint[];
  initialStock: number;
  /** A finished run's load end and final reading of the store; absent while it runs. */
  drain?: StockDrain;
}

/** Room above the initial-stock line for its label when nothing is sold beyond it. */
const LABEL_HEADROOM = 1.2;

/** Remaining stock falls while units sold rise; sold crossing the initial-stock line is overselling. */
export function StockChart({ timeline, initialStock, drain }: StockChartProps) {
  const { t } = useTranslation();
  const points = useMemo(() => stockPoints(timeline, initialStock, drain), [timeline, initialStock, drain]);
  const highest = points.reduce((max, r) => Math.max(max, r.soldTotal, r.remaining ?? 0, r.finalRemaining ?? 0), initialStock * LABEL_HEADROOM);
  const end = points[points.length - 1].t;
  // The seconds after the load, while the instances answer the waiting orders and flush: the store is not read then (see stockPoints).
  const draining = drain && end > drain.loadEndSec;
  const yAxis = numberAxis(highest, formatTick);
  const top = yAxis.domain[1];
  return (
    <ChartBox title={t('charts.stock.title')} hint={draining ? t('charts.stock.hintDraining') : t('charts.stock.hint')} testId="stock-chart">
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={[0, 'dataMax']} unit=" s" allowDecimals={false} />
        <YAxis {...yAxis} allowDecimals={false} />
        <Tooltip />
        <Legend itemSorter={null} />
        <ReferenceArea y1={initialStock} y2={top} fill={CHART_COLORS.alarmSoft} fillOpacity={0.6} ifOverflow="hidden" />
        {draining && (
          <ReferenceArea
            x1={drain.loadEndSec}
            x2={end}
            fill={CHART_COLORS.ink}
            fillOpacity={0.08}
            label={{ value: t('charts.stock.draining'), position: 'insideTop', fill: CHART_COLORS.ink, fontSize: 12 }}
          />
        )}
        {/* The label sits just above the line at its right end, clear of the x-axis and of the
            remaining-stock line, which starts at the initial stock on the left. */}
        <ReferenceLine
          y={initialStock}
          stroke={CHART_COLORS.ink}
          strokeDasharray="6 4"
          label={{ value: t('charts.stock.initial', { n: initialStock }), position: 'insideBottomRight', offset: 6, fill: CHART_COLORS.ink, fontSize: 13, fontWeight: 600 }}
        />
        {/* Straight lines between the ends of the seconds: nothing says when within a second the units went. */}
        <Line type="linear" dataKey="soldTotal" name={t('charts.stock.sold')} stroke={CHART_COLORS.sold} strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line type="linear" dataKey="remaining" name={t('charts.stock.remaining')} stroke={CHART_COLORS.remaining} strokeWidth={2} dot={false} isAnimationActive={false} />
        {drain && (
          <Line
            type="linear"
            dataKey="finalRemaining"
            name={t('charts.stock.finalRemaining')}
            stroke={CHART_COLORS.remaining}
            strokeWidth={0}
            dot={{ r: 5, fill: CHART_COLORS.remaining }}
            legendType="circle"
            isAnimationActive={false}
          />
        )}
      </LineChart>
    </ChartBox>
  );
}
