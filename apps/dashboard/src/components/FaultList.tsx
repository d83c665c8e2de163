import type { FaultEvent } from '@oversell/contracts';
import { describeFault } from '../lib/fault-text';
import { formatCount } from '../lib/format';

/** Faults listed at most; a fault that fires every Nth holding can fire thousands of times in a run. */
const MAX_LISTED = 20;

/** The faults a run injected, in the order they fired. */
export function FaultList({ faults }: { faults: FaultEvent[] }) {
  if (faults.length === 0) return null;
  return (
    <section className="faults-fired" data-testid="faults-fired" data-count={faults.length} aria-label="Faults fired">
      <h3>Faults fired: {formatCount(faults.length)}</h3>
      <ol className="fault-list">
        {faults.slice(0, MAX_LISTED).map((fault, index) => (
          <li key={`${fault.startedAt}#${index}`}>{describeFault(fault)}</li>
        ))}
      </ol>
      {faults.length > MAX_LISTED && <p className="run-meta">and {formatCount(faults.length - MAX_LISTED)} more, marked on the lock timeline</p>}
    </section>
  );
}
