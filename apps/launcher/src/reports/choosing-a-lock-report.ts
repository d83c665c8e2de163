import {
  faultOutcomesText,
  figureText,
  findPitfallPreset,
  isExpectedVerdict,
  LOCK_FAULT_OF,
  LOCK_FAULT_TITLES,
  LOCK_FAULTS,
  NOT_MEASURED,
  type BenchRow,
  type ChoiceRow,
  type ChoiceSource,
  type ChoosingALock,
  type FaultOutcome,
  type FaultPointName,
  type LockChoice,
  type LockFault,
  type CatalogueDescription,
} from '@oversell/contracts';
import type { PitfallRunRecord, PitfallsReport } from './pitfalls-report';

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

export interface ChoiceInputs {
  bench: LoadedReport<BenchInput> | null;
  locks: LoadedReport<LockBenchInput> | null;
  pitfalls: LoadedReport<PitfallsReport> | null;
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
function underFault(strategy: string, pitfalls: PitfallsReport | undefined): Record<LockFault, FaultOutcome[]> {
  const outcomes = Object.fromEntries(LOCK_FAULTS.map((fault) => [fault, [] as FaultOutcome[]])) as Record<LockFault, FaultOutcome[]>;
  const groups = new Map<string, PitfallRunRecord[]>();
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

/** A table cell: markdown's column separator escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

function sourceLine(label: string, source: ChoiceSource | null): string {
  if (!source) return `- ${label}: ${NOT_MEASURED.en} (no report found)`;
  const m = source.machine;
  const load = m.loadAverage ? `load average ${m.loadAverage.join(' / ')} (1 / 5 / 15 min) at its end` : 'load not recorded';
  return `- ${label}: \`${source.command}\`, started ${source.startedAt}, ${m.cpus} cores, ${m.memoryGb} GB, Node ${m.node}, ${load} — \`${source.file}\``;
}

/** docs/choosing-a-lock.md: generated, every figure from a report, "not measured" where none was. */
export function choosingALockMarkdown(data: ChoosingALock): string {
  const { rows } = data;
  return [
    '# Choosing a lock',
    '',
    '<!-- Generated by `npm run choosing-a-lock` from the strategy catalogue (each entry\'s `choice`) and the reports below. Do not edit by hand: change an entry or rerun the benches, then regenerate. -->',
    '',
    "The articles' closing question — which lock to choose — answered with this lab's figures. The words in each row come from the strategy's entry in the catalogue (libs/contracts/src/catalogue); every figure comes from one of these runs, on this machine, shared with whatever else ran at the time (the load average says how busy it was). A figure a run did not produce reads \"not measured\".",
    '',
    `Generated ${data.generatedAt} by \`${data.command}\` from:`,
    '',
    sourceLine('Strategies (orders/s, p99, oversold)', data.sources.bench),
    sourceLine('Bare locks (sections/s, wait p99)', data.sources.locks),
    sourceLine('Faults (pitfall presets, broken side and fix)', data.sources.pitfalls),
    '',
    '## What each needs, how complex, how reliable',
    '',
    '| strategy | kind | runs on | complexity | reliability |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.title)} (\`${r.strategy}\`) | ${r.kind} | ${cell(r.choice.runsOn)} | ${cell(r.choice.complexity)} | ${cell(r.choice.reliability)} |`),
    '',
    '## Performance',
    '',
    'Orders/s and p99 are the whole order (lock, stock read and write, order insert) through the lab, from the strategies bench; sections/s and wait p99 are the bare lock around one counter, from the lock bench, whose timeouts (acquires that gave up waiting) and errors say how far its figures can be trusted.',
    '',
    '| strategy | orders/s | p99 ms | oversold | lock sections/s | lock wait p99 ms | lock timeouts | lock errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| \`${r.strategy}\` | ${figureText(r.ordersPerSec)} | ${figureText(r.p99Ms, 1)} | ${figureText(r.oversold)} | ${figureText(r.lockSectionsPerSec)} | ${figureText(r.lockWaitP99Ms, 1)} | ${figureText(r.lockTimeouts)} | ${figureText(r.lockErrors)} |`,
    ),
    '',
    '## Under each fault',
    '',
    'What the design says happens, then what the pitfall presets that put the strategy under that fault measured (broken side: the pitfall showed in n of m runs; fix: clean in n of m).',
    ...LOCK_FAULTS.flatMap((fault) => [
      '',
      `### ${LOCK_FAULT_TITLES[fault].en[0].toUpperCase()}${LOCK_FAULT_TITLES[fault].en.slice(1)}`,
      '',
      '| strategy | by design | measured |',
      '|---|---|---|',
      ...rows.map((r) => `| \`${r.strategy}\` | ${cell(r.choice.underFault[fault])} | ${cell(faultOutcomesText(r.underFault[fault]))} |`),
    ]),
    '',
  ].join('\n');
}
