import { useTranslation } from 'react-i18next';
import type { FaultEvent } from '@oversell/contracts';
import { describeFault } from '../lib/fault-text';
import { formatCount } from '../lib/format';

/** Faults listed at most; a fault that fires every Nth holding can fire thousands of times in a run. */
const MAX_LISTED = 20;

/** The faults a run injected, in the order they fired. */
export function FaultList({ faults }: { faults: FaultEvent[] }) {
  const { t } = useTranslation();
  if (faults.length === 0) return null;
  return (
    <section className="faults-fired" data-testid="faults-fired" data-count={faults.length} aria-label={t('faultList.label')}>
      <h3>{t('faultList.title', { n: formatCount(faults.length) })}</h3>
      <ol className="fault-list">
        {faults.slice(0, MAX_LISTED).map((fault, index) => (
          <li key={`${fault.startedAt}#${index}`}>{describeFault(fault, t)}</li>
        ))}
      </ol>
      {faults.length > MAX_LISTED && <p className="run-meta">{t('faultList.more', { n: formatCount(faults.length - MAX_LISTED) })}</p>}
    </section>
  );
}
