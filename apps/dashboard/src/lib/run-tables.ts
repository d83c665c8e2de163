import { unitsSoldTwice, type RunView } from '@oversell/contracts';
import type { CompareRow } from './compare-rows';
import type { ExportCell, ExportTable } from './export';
import { comparedSettings } from './run-settings';

/** Column names of an export are data, not UI text: the same in every language, named as the API names them. */
const SETTINGS_COLUMNS = ['initialStock', 'lockTtlMs', 'businessDelayMs', 'connections', 'faults'] as const;

function settingsCells(run: RunView | undefined): ExportCell[] {
  if (!run) return SETTINGS_COLUMNS.map(() => undefined);
  const settings = comparedSettings(run.params);
  return SETTINGS_COLUMNS.map((column) => settings[column]);
}

/** Compare's table as shown: one row per strategy, with its run's id and settings (empty where it has no run). */
export function compareTable(rows: readonly CompareRow[]): ExportTable {
  return {
    columns: ['strategy', 'runId', 'soldTwice', 'oversold', 'lost', 'throughput', 'ceilingRatio', 'p50Ms', 'p99Ms', ...SETTINGS_COLUMNS],
    rows: rows.map((row) => [
      row.strategy,
      row.run?.id,
      row.soldTwice,
      row.oversold,
      row.lost,
      row.throughput,
      row.ceilingRatio,
      row.p50,
      row.p99,
      ...settingsCells(row.run),
    ]),
  };
}

/** History's table as shown, newest first, with each run's settings. */
export function historyTable(runs: readonly RunView[]): ExportTable {
  return {
    columns: ['runId', 'strategy', 'scenario', 'startedAt', 'status', 'soldTwice', 'oversold', 'throughput', 'p99Ms', ...SETTINGS_COLUMNS],
    rows: runs.map((run) => {
      const reconciliation = run.result?.reconciliation;
      return [
        run.id,
        run.params.strategy,
        run.params.scenario,
        run.startedAt ?? run.createdAt,
        run.status,
        reconciliation && unitsSoldTwice(reconciliation),
        reconciliation?.oversold,
        run.result?.throughput,
        run.result?.latency.p99,
        ...settingsCells(run),
      ];
    }),
  };
}
