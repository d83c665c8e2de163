import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { TimelineRow } from '../lib/timeline';
import { ChartBox } from './ChartBox';
import { CHART_COLORS } from './chart-colors';

interface StockChartProps {
  rows: TimelineRow[];
  initialStock: number;
}

/** Remaining stock falls while units sold rise; sold crossing the initial-stock line is overselling. */
export function StockChart({ rows, initialStock }: StockChartProps) {
  const highest = rows.reduce((max, r) => Math.max(max, r.soldTotal, r.remaining), initialStock);
  const top = Math.ceil(highest * 1.1) || 1;
  return (
    <ChartBox title="Stock over time" hint="units sold above the dashed line were never in stock" testId="stock-chart">
      <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={[0, 'dataMax']} unit=" s" allowDecimals={false} />
        <YAxis domain={[0, top]} allowDecimals={false} width={56} />
        <Tooltip />
        <Legend />
        <ReferenceArea y1={initialStock} y2={top} fill={CHART_COLORS.alarmSoft} fillOpacity={0.6} ifOverflow="hidden" />
        <ReferenceLine
          y={initialStock}
          stroke={CHART_COLORS.ink}
          strokeDasharray="6 4"
          label={{ value: `initial stock ${initialStock}`, position: 'insideTopLeft' }}
        />
        <Line type="stepAfter" dataKey="soldTotal" name="units sold" stroke={CHART_COLORS.sold} strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line type="stepAfter" dataKey="remaining" name="remaining stock" stroke={CHART_COLORS.remaining} strokeWidth={2} dot={false} isAnimationActive={false} />
      </LineChart>
    </ChartBox>
  );
}
