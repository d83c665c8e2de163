import type { RunView } from '@oversell/contracts';
import { formatMs, formatRate } from '../lib/format';

/** A no-op run's one figure: how many requests per second the stack answers doing nothing. */
export function CeilingMeasurement({ run }: { run: RunView }) {
  const { result } = run;
  return (
    <p className="run-meta" data-testid="ceiling-measurement">
      {!result
        ? 'Measuring the no-op endpoint through the same instances and load tool…'
        : run.params.warmUp
          ? `Warm-up: ${formatRate(result.throughput)}, discarded; it readies the instances for the ceiling run after it.`
          : `Ceiling: ${formatRate(result.throughput)} through the same instances and load tool, p50 ${formatMs(result.latency.p50)}, p99 ${formatMs(result.latency.p99)}.`}
    </p>
  );
}
