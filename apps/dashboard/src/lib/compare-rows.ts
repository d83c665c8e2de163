import { isCeilingTarget, STRATEGY_NAMES, unitsSoldTwice, type ContendedPhase, type RunView, type StrategyName } from '@oversell/contracts';
import { ceilingRatio, findCeilingRun } from './ceiling';
import { isInProgress } from './run-status';
import { settingsKey } from './run-settings';

/** One strategy in the compare view: its latest completed run's figures. */
export interface CompareRow {
  strategy: StrategyName;
  /** Latest completed run, if any. */
  run?: RunView;
  /** A run of this strategy is queued or running, so the figures are about to change. */
  pending: boolean;
  /** Units sold twice (unitsSoldTwice): what decides whether the strategy held. */
  soldTwice?: number;
  /** Of those, sold beyond the initial stock. */
  oversold?: number;
  lost?: number;
  throughput?: number;
  /** Throughput over the no-op ceiling's. */
  ceilingRatio?: number;
  p50?: number;
  p99?: number;
  /** Absent in results from before it existed. */
  contendedPhase?: ContendedPhase;
}

/**
 * Every strategy, in the contracts' order, from the run list (newest first). `settings`: only runs with
 * these compared settings (settingsKey) count; the ceiling is still looked up among all the runs.
 */
export function buildCompareRows(runs: readonly RunView[], settings?: string): CompareRow[] {
  return STRATEGY_NAMES.map((strategy) => {
    const own = runs.filter((r) => r.params.strategy === strategy && (settings === undefined || settingsKey(r.params) === settings));
    const run = own.find((r) => r.status === 'completed' && r.result);
    const pending = own.some(isInProgress);
    const result = run?.result;
    if (!run || !result) return { strategy, pending };
    return {
      strategy,
      run,
      pending,
      soldTwice: unitsSoldTwice(result.reconciliation),
      oversold: result.reconciliation.oversold,
      lost: result.reconciliation.lost,
      throughput: result.throughput,
      ceilingRatio: ceilingRatio(result.throughput, findCeilingRun(run, runs)?.result?.throughput),
      p50: result.latency.p50,
      p99: result.latency.p99,
      contendedPhase: result.contendedPhase,
    };
  });
}

/** The distinct compared settings of the strategy runs that completed, newest first: the filter's choices. */
export function settingsSeen(runs: readonly RunView[]): { key: string; run: RunView }[] {
  const seen = new Map<string, RunView>();
  for (const run of runs) {
    if (isCeilingTarget(run.params.strategy) || run.status !== 'completed') continue;
    const key = settingsKey(run.params);
    if (!seen.has(key)) seen.set(key, run);
  }
  return [...seen].map(([key, run]) => ({ key, run }));
}
