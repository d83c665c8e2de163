import { CEILING_MEASURED_LOW, ceilingPercent, isCeilingRun, type Locale, type RunView } from '@oversell/contracts';

/**
 * The no-op run a strategy run is measured against: the one from the same batch when there is one
 * (same stack, same moment), otherwise the latest completed one; never a batch's warm-up. `runs` is newest first.
 */
export function findCeilingRun(run: RunView, runs: readonly RunView[]): RunView | undefined {
  const ceilings = runs.filter(isCeilingRun);
  const sameBatch = run.params.batchId ? ceilings.find((r) => r.params.batchId === run.params.batchId) : undefined;
  return sameBatch ?? ceilings[0];
}

/** A strategy's throughput as a fraction of the ceiling's; undefined when there is no usable ceiling. */
export function ceilingRatio(throughput: number, ceilingThroughput: number | undefined): number | undefined {
  if (!ceilingThroughput || ceilingThroughput <= 0) return undefined;
  return throughput / ceilingThroughput;
}

/**
 * "72 %", with a no-break space so a chart label never wraps between the number and its unit; above
 * 100 % the ceiling was measured low, and the cell says so instead of showing a figure. A share that
 * rounds to 0 but is not 0 is "<1 %": "0 %" would read as no throughput at all.
 */
export function formatRatio(ratio: number | undefined, locale: Locale): string {
  if (ratio === undefined) return '—';
  const percent = ceilingPercent(ratio);
  if (percent === null) return CEILING_MEASURED_LOW[locale];
  return `${percent === 0 && ratio > 0 ? '<1' : percent}\u00a0%`;
}

/** The bar label: a share of the ceiling, or none at all when there is no ceiling or it was measured low. */
export function ratioLabel(ratio: number | undefined, locale: Locale): string | undefined {
  return ratio === undefined || ceilingPercent(ratio) === null ? undefined : formatRatio(ratio, locale);
}
