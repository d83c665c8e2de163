import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const depthAxis = numberAxis(orderWrite.peakDepth, formatTick);
  const lagAxis = numberAxis(orderWrite.peakLagMs, formatMsTick);
  const left = [
    orderWrite.stillQueued ? t('charts.orderQueue.stillQueued', { n: formatTick(orderWrite.stillQueued) }) : '',
    orderWrite.failed ? t('charts.orderQueue.failed', { n: formatTick(orderWrite.failed) }) : '',
  ].filter(Boolean);
  const hint = left.length ? left.join('; ') : t('charts.orderQueue.hint');
  return (
    <ChartBox title={t('charts.orderQueue.title')} hint={hint} testId="order-queue-chart">
      <ComposedChart data={orderWrite.backlog} margin={{ top: 8, right: 4, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={[0, 'dataMax']} unit=" s" allowDecimals={false} />
        <YAxis yAxisId="depth" {...depthAxis} allowDecimals={false} />
        <YAxis yAxisId="lag" orientation="right" {...lagAxis} />
        <Tooltip />
        <Legend itemSorter={null} />
        <Line yAxisId="depth" type="stepAfter" dataKey="depth" name={t('charts.orderQueue.depth')} stroke={CHART_COLORS.sold} strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line yAxisId="lag" type="monotone" dataKey="lagMs" name={t('charts.orderQueue.lag')} stroke={CHART_COLORS.latency} strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ChartBox>
  );
}
