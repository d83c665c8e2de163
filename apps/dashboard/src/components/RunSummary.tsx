import { useTranslation } from 'react-i18next';
import { unitsSoldTwice, type RunView } from '@oversell/contracts';
import { formatCount } from '../lib/format';
import type { RunFigures } from '../lib/run-figures';
import { RunStatusBadge } from './RunStatusBadge';

/**
 * A live run's state in one line that stays at the top of the screen (sticky) while the charts below
 * are read: its status, the units sold twice so far, sold and remaining, and the seconds of load gone.
 */
export function RunSummary({ run, figures }: { run: RunView; figures: RunFigures }) {
  const { t } = useTranslation();
  const soldTwice = unitsSoldTwice(figures.stock);
  // Seconds measured so far: the timeline's last second has ended (no clock of our own to drift from it).
  const elapsed = (figures.timeline.at(-1)?.t ?? -1) + 1;
  const planned = run.params.load.durationSec;
  return (
    <div className="run-summary" role="group" data-testid="run-summary" aria-label={t('runSummary.label')}>
      <RunStatusBadge status={figures.status} failure={figures.failure} testId="run-summary-status" />
      <span data-testid="run-summary-sold-twice" className={soldTwice > 0 ? 'alarm-text' : undefined}>
        {t('runSummary.soldTwice', { count: soldTwice, n: formatCount(soldTwice) })}
      </span>
      <span data-testid="run-summary-stock">
        {t('runSummary.stock', { sold: formatCount(figures.sold), remaining: formatCount(Math.max(0, figures.remaining)), initial: formatCount(figures.initialStock) })}
      </span>
      <span data-testid="run-summary-elapsed">
        {planned === undefined ? t('runSummary.elapsed', { n: elapsed }) : t('runSummary.elapsedOf', { n: elapsed, of: planned })}
      </span>
    </div>
  );
}
