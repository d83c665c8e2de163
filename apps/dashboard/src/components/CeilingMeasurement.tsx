import { useTranslation } from 'react-i18next';
import type { RunView } from '@oversell/contracts';
import { formatMs, formatRate } from '../lib/format';

/** A no-op run's one figure: how many requests per second the stack answers doing nothing. */
export function CeilingMeasurement({ run }: { run: RunView }) {
  const { t } = useTranslation();
  const { result } = run;
  return (
    <p className="run-meta" data-testid="ceiling-measurement">
      {!result
        ? t('ceiling.measuring')
        : run.params.warmUp
          ? t('ceiling.warmUp', { rate: formatRate(result.throughput) })
          : t('ceiling.measured', { rate: formatRate(result.throughput), p50: formatMs(result.latency.p50), p99: formatMs(result.latency.p99) })}
    </p>
  );
}
