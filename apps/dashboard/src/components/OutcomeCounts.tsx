import { useTranslation } from 'react-i18next';
import { ORDER_OUTCOMES, type OutcomeCounts as Counts } from '@oversell/contracts';
import { formatCount } from '../lib/format';

interface OutcomeCountsProps {
  counts: Counts;
  /** Optimistic version checks that failed and were retried (known once the run is stored). */
  conflictRetries?: number;
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className={value === 0 ? 'outcome--none' : undefined}>
      <dt>{label}</dt>
      <dd>{formatCount(value)}</dd>
    </div>
  );
}

/** How the order attempts ended, so far or in total: the total on top, one figure per outcome below. */
export function OutcomeCounts({ counts, conflictRetries }: OutcomeCountsProps) {
  const { t } = useTranslation();
  return (
    <section className="outcomes" data-testid="outcome-counts" aria-label={t('outcomes.label')}>
      <h3 className="outcomes-title">
        {t('outcomes.title')}
        <span className="outcomes-total" data-testid="outcome-attempts">
          {formatCount(counts.attempts)}
          <small>{t('outcomes.attempts')}</small>
        </span>
      </h3>
      <dl className="outcomes-grid">
        {ORDER_OUTCOMES.map((outcome) => (
          <Figure key={outcome} label={t(`outcomes.outcome.${outcome}`)} value={counts[outcome]} />
        ))}
        {conflictRetries !== undefined && <Figure label={t('outcomes.conflictRetries')} value={conflictRetries} />}
      </dl>
    </section>
  );
}
