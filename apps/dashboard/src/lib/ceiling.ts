import { NOOP_TARGET, type RunView } from '@oversell/contracts';

/**
 * The no-op run a strategy run is measured against: the one from the same batch when there is one
 * (same stack, same moment), otherwise the latest completed one. `runs` is newest first.
 */
export function findCeilingRun(run: RunView, runs: readonly RunView[]): RunView | undefined {
  const ceilings = runs.filter((r) => r.params.strategy === NOOP_TARGET && r.status === 'completed' && r.result);
  const sameBatch = run.params.batchId ? ceilings.find((r) => r.params.batchId === run.params.batchId) : undefined;
  return sameBatch ?? ceilings[0];
}

/** A strategy's throughput as a fraction of the ceiling's; undefined when there is no usable ceiling. */
export function ceilingRatio(throughput: number, ceilingThroughput: number | undefined): number | undefined {
  if (!ceilingThroughput || ceilingThroughput <= 0) return undefined;
  return throughput / ceilingThroughput;
}

/** "72 %", with a no-break space so a chart label never wraps between the number and its unit. */
export function formatRatio(ratio: number | undefined): string {
  return ratio === undefined ? '—' : `${Math.round(ratio * 100)}\u00a0%`;
}
