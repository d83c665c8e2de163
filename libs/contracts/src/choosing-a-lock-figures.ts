import type { BenchRow } from './bench';
import type { ChoiceRow, ChoiceSource, ChoosingALock, FaultOutcome } from './choosing-a-lock';
import { LOCK_FAULT_OF, LOCK_FAULTS, type LockFault } from './lock-faults';
import type { FaultPointName } from './faults';
import { findPitfallPreset, isExpectedVerdict, type PitfallVerdict } from './pitfall-presets';
import type { CatalogueDescription, LockChoice } from './strategies';

/**
 * The comparison's figures from the reports of this lab's runs: `npm run choosing-a-lock` writes them
 * into docs and the dashboard's recorded JSON, and the order service computes them from the lab's own
 * latest reports (GET /api/lab-figures/choosing-a-lock), so the Explain view shows this lab's figures
 * when it has run the benches.
 */

/**
 * Where the benches leave their latest reports, under the lab's results folder (bench-results/): each
 * latest file is a copy of the newest stamped one; the pitfalls reports are stamped only.
 */
export const LAB_REPORT_FILES = { bench: 'latest.json', locks: 'locks-latest.json' } as const;

/** The newest `pitfalls-<stamp>.json` among a folder's file names (the stamps sort as times do); null when there is none. */
export function latestPitfallsReportName(names: readonly string[]): string | null {
  const reports = names.filter((name) => /^pitfalls-.*\.json$/.test(name)).sort();
  return reports.length ? reports[reports.length - 1] : null;
}

/** The parts of `npm run bench`'s report (BenchReport) read here. */
export interface BenchInput {
  command: string;
  startedAt: string;
  machine: ChoiceSource['machine'];
  /** orderWrite is absent from reports written before the bench could queue orders (all sync). */
  rows: (Pick<BenchRow, 'strategy' | 'status' | 'throughput' | 'p99' | 'oversold'> & Partial<Pick<BenchRow, 'orderWrite'>>)[];
}

/** The parts of `npm run bench:locks`'s report (apps/lock-bench, LockBenchReport) read here. */
export interface LockBenchInput {
  command: string;
  startedAt: string;
  machine: ChoiceSource['machine'];
  rows: { lock: string; sectionsPerSec: number; waitMs: { p99: number }; timeouts: number; errors: number }[];
}

/** A report as read from its file. */
export interface LoadedReport<T> {
  file: string;
  report: T;
}

/** The parts of `npm run pitfalls`'s report (the launcher's PitfallsReport) read here. */
export interface PitfallsInput {
  command: string;
  startedAt: string;
  machine: ChoiceSource['machine'];
  presets: { preset: string; shows: string }[];
  runs: { preset: string; role: 'broken' | 'fix'; strategy: string; verdict: PitfallVerdict; oversold: number }[];
}

export interface ChoiceInputs {
  bench: LoadedReport<BenchInput> | null;
  locks: LoadedReport<LockBenchInput> | null;
  pitfalls: LoadedReport<PitfallsInput> | null;
}

const sourceOf = (loaded: LoadedReport<{ command: string; startedAt: string; machine: ChoiceSource['machine'] }> | null): ChoiceSource | null =>
  loaded && { file: loaded.file, command: loaded.report.command, startedAt: loaded.report.startedAt, machine: loaded.report.machine };

/**
 * Where a pause makes a holder one "paused past the lease": inside its critical section, before its
 * stock write. A pause after the write (stock-written, inside the release) tests whose lock a late
 * release deletes (mis-deletion), which no column here compares: counted as a pause, uuid-lua's
 * clean fix there stood beside its by-design "oversold" for a pause before the write.
 */
const BEFORE_THE_WRITE: readonly FaultPointName[] = ['lock-acquired', 'stock-read'];

/** The comparison faults a preset's runs are under, read off the faults its sides carry. */
function faultsOfPreset(presetName: string): LockFault[] {
  const preset = findPitfallPreset(presetName);
  const faults = preset?.sides.flatMap((side) => side.settings.faults ?? []) ?? [];
  const kinds = faults.map((fault) => {
    const lockFault = LOCK_FAULT_OF[fault.kind];
    return lockFault === 'pause' && !('at' in fault && fault.at !== undefined && BEFORE_THE_WRITE.includes(fault.at)) ? undefined : lockFault;
  });
  return [...new Set(kinds.filter((fault): fault is LockFault => fault !== undefined))];
}

/** Each preset side that ran `strategy`, as one outcome per (preset, role), under the faults of its preset. */
function underFault(strategy: string, pitfalls: PitfallsInput | undefined): Record<LockFault, FaultOutcome[]> {
  const outcomes = Object.fromEntries(LOCK_FAULTS.map((fault) => [fault, [] as FaultOutcome[]])) as Record<LockFault, FaultOutcome[]>;
  const groups = new Map<string, PitfallsInput['runs']>();
  for (const run of pitfalls?.runs.filter((run) => run.strategy === strategy) ?? []) {
    const key = `${run.preset}\u0000${run.role}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  for (const runs of groups.values()) {
    const { preset, role } = runs[0];
    const tally = pitfalls?.presets.find((t) => t.preset === preset);
    const outcome: FaultOutcome = {
      preset,
      role,
      expected: runs.filter((run) => isExpectedVerdict(run.verdict)).length,
      runs: runs.length,
      oversold: runs.reduce((sum, run) => sum + run.oversold, 0),
      shows: tally?.shows ?? findPitfallPreset(preset)?.shows ?? 'its pitfall',
    };
    for (const fault of faultsOfPreset(preset)) outcomes[fault].push(outcome);
  }
  return outcomes;
}

/**
 * The comparison's rows: every strategy whose description says where it stands (`choice`), in the
 * registry's order, with its figures from the reports, null (not measured) where a report lacks them.
 */
export function choosingALock(descriptions: readonly CatalogueDescription[], inputs: ChoiceInputs, command: string, generatedAt: Date): ChoosingALock {
  const rows = descriptions.flatMap((description): ChoiceRow[] => {
    const choice: LockChoice | undefined = description.choice;
    if (!choice) return [];
    // A failed run's figures describe the failure, not the strategy.
    const bench = inputs.bench?.report.rows.find((row) => row.strategy === description.name && (row.orderWrite ?? 'sync') === 'sync' && row.status === 'completed');
    const lock = choice.benchLock === undefined ? undefined : inputs.locks?.report.rows.find((row) => row.lock === choice.benchLock);
    return [
      {
        strategy: description.name,
        title: description.title,
        kind: description.kind,
        choice,
        ordersPerSec: bench?.throughput ?? null,
        p99Ms: bench?.p99 ?? null,
        oversold: bench?.oversold ?? null,
        lockSectionsPerSec: lock?.sectionsPerSec ?? null,
        lockWaitP99Ms: lock?.waitMs.p99 ?? null,
        lockTimeouts: lock?.timeouts ?? null,
        lockErrors: lock?.errors ?? null,
        underFault: underFault(description.name, inputs.pitfalls?.report),
      },
    ];
  });
  return {
    command,
    generatedAt: generatedAt.toISOString(),
    sources: { bench: sourceOf(inputs.bench), locks: sourceOf(inputs.locks), pitfalls: sourceOf(inputs.pitfalls) },
    rows,
  };
}
