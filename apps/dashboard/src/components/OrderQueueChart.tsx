import type { OrderWriteFigures } from '@oversell/contracts';
import { CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { numberAxis } from '../lib/axis';
import { formatMsTick, formatTick } from '../lib/format';
import { ChartBox } from './ChartBox';
import { CHART_COLORS } from './chart-colors';

/**
 * The order-write queue's backlog each second of a queued run (the whole queue's, which the lab's runs
 * share): orders answered but not yet written to MySQL (left axis) and the age of the oldest of them
 * (right axis). It must be back at 0 before the books are read. The hint names the run's own orders left.
 */
export function OrderQueueChart({ orderWrite }: { orderWrite: OrderWriteFigures }) {
  const depthAxis = numberAxis(orderWrite.peakDepth, formatTick);
  const lagAxis = numberAxis(orderWrite.peakLagMs, formatMsTick);
  const left = [
    orderWrite.stillQueued ? `${formatTick(orderWrite.stillQueued)} orders were still queued when the reconciliation stopped waiting` : '',
    orderWrite.failed ? `${formatTick(orderWrite.failed)} orders' jobs failed for good (never written)` : '',
  ].filter(Boolean);
  const hint = left.length ? left.join('; ') : 'orders sold but not yet written to MySQL; drained before the books were read';
  return (
    <ChartBox title="Order-write queue" hint={hint} testId="order-queue-chart">
      <ComposedChart data={orderWrite.backlog} margin={{ top: 8, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={[0, 'dataMax']} unit=" s" allowDecimals={false} />
        <YAxis yAxisId="depth" {...depthAxis} allowDecimals={false} />
        <YAxis yAxisId="lag" orientation="right" {...lagAxis} />
        <Tooltip />
        <Legend itemSorter={null} />
        <Line yAxisId="depth" type="stepAfter" dataKey="depth" name="orders queued" stroke={CHART_COLORS.sold} strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line yAxisId="lag" type="monotone" dataKey="lagMs" name="oldest waiting ms" stroke={CHART_COLORS.latency} strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ChartBox>
  );
}
