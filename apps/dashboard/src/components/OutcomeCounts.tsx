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
  return (
    <section className="outcomes" data-testid="outcome-counts" aria-label="Order attempts by outcome">
      <h3 className="outcomes-title">
        How the order attempts ended
        <span className="outcomes-total" data-testid="outcome-attempts">
          {formatCount(counts.attempts)}
          <small>attempts</small>
        </span>
      </h3>
      <dl className="outcomes-grid">
        {ORDER_OUTCOMES.map((outcome) => (
          <Figure key={outcome} label={outcome.replace('_', ' ')} value={counts[outcome]} />
        ))}
        {conflictRetries !== undefined && <Figure label="conflict retries" value={conflictRetries} />}
      </dl>
    </section>
  );
}
