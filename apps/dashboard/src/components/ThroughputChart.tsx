import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { numberAxis } from '../lib/axis';
import { formatMsTick, formatTick } from '../lib/format';
import type { TimelineRow } from '../lib/timeline';
import { ChartBox } from './ChartBox';
import { CHART_COLORS } from './chart-colors';

/** Requests answered per second (bars) against the slowest 1 % of them (line, right axis). */
export function ThroughputChart({ rows }: { rows: TimelineRow[] }) {
  const { t } = useTranslation();
  // Round ticks, and both axes as wide as their longest label (12,345 or 1,500 ms).
  const rateAxis = numberAxis(Math.max(0, ...rows.map((r) => r.requestsPerSec ?? 0)), formatTick);
  const latencyAxis = numberAxis(Math.max(0, ...rows.map((r) => r.p99 ?? 0)), formatMsTick);
  return (
    <ChartBox title={t('charts.throughput.title')} testId="throughput-chart">
      <ComposedChart data={rows} margin={{ top: 8, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        {/* A category axis, so each second's bar sits whole inside the chart. */}
        <XAxis dataKey="t" unit=" s" />
        <YAxis yAxisId="rate" {...rateAxis} allowDecimals={false} />
        <YAxis yAxisId="latency" orientation="right" {...latencyAxis} />
        <Tooltip />
        <Legend itemSorter={null} />
        <Bar yAxisId="rate" dataKey="requestsPerSec" name={t('charts.throughput.requestsPerSec')} fill={CHART_COLORS.rate} isAnimationActive={false} />
        <Line yAxisId="latency" type="monotone" dataKey="p99" name={t('charts.throughput.p99')} stroke={CHART_COLORS.latency} strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ChartBox>
  );
}
