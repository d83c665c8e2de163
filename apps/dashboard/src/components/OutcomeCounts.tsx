import { ORDER_OUTCOMES, type OutcomeCounts as Counts } from '@oversell/contracts';
import { formatCount } from '../lib/format';

interface OutcomeCountsProps {
  counts: Counts;
  /** Optimistic version checks that failed and were retried (known once the run is stored). */
  conflictRetries?: number;
}

/** How the order attempts ended, so far or in total. */
export function OutcomeCounts({ counts, conflictRetries }: OutcomeCountsProps) {
  return (
    <dl className="outcomes" data-testid="outcome-counts">
      <div>
        <dt>attempts</dt>
        <dd>{formatCount(counts.attempts)}</dd>
      </div>
      {ORDER_OUTCOMES.map((outcome) => (
        <div key={outcome}>
          <dt>{outcome.replace('_', ' ')}</dt>
          <dd>{formatCount(counts[outcome])}</dd>
        </div>
      ))}
      {conflictRetries !== undefined && (
        <div>
          <dt>conflict retries</dt>
          <dd>{formatCount(conflictRetries)}</dd>
        </div>
      )}
    </dl>
  );
}
