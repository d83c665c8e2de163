import { isExpectedVerdict, pitfallVerdict, type PitfallPreset, type PitfallSide, type PitfallSign, type PitfallVerdict, type RunView } from '@oversell/contracts';
import { benchRow } from './bench-report';

/** The issue's target for every preset: the broken side shows its pitfall in ≥ 95 % of its runs, the fix is clean in all. */
export const BROKEN_TARGET = 0.95;
export const FIX_TARGET = 1;

/** One ended run of one side, with the figures that decide its verdict. */
export interface PitfallRunRecord {
  preset: string;
  /** The side's English label. */
  side: string;
  role: PitfallSide['role'];
  strategy: string;
  /** 1-based. */
  repetition: number;
  /** Null when the run could not be queued. */
  runId: string | null;
  status: RunView['status'];
  failure: string | null;
  verdict: PitfallVerdict;
  /** Units sold twice (unitsSoldTwice), sold out or not. */
  soldTwice: number;
  oversold: number;
  exclusionViolations: number;
  lockTimeouts: number;
  orders: number;
  sold: number;
  conflictRetries: number;
  faultsFired: number;
  /** Units sold per second from the first order to the sell-out (the whole run when stock was left); null without a result. */
  unitsPerSec: number | null;
}

/** How a preset fared over all its runs. A failed run counts against its side: it is neither shown nor clean. */
export interface PitfallTally {
  preset: string;
  title: string;
  shows: PitfallSign;
  broken: { showed: number; runs: number; failed: number };
  fix: { clean: number; runs: number; failed: number };
  brokenTargetMet: boolean;
  fixTargetMet: boolean;
  /** For a pitfall whose cost is throughput (hot-key): each side's mean units/s over its completed runs. */
  unitsPerSec?: { broken: number | null; fix: number | null };
}

export interface PitfallsReport {
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; memoryGb: number; node: string };
  instances: number;
  repeat: number;
  allTargetsMet: boolean;
  presets: PitfallTally[];
  runs: PitfallRunRecord[];
}

/** The preset, side and repetition a record is of. */
function whichRun(preset: PitfallPreset, side: PitfallSide, repetition: number): Pick<PitfallRunRecord, 'preset' | 'side' | 'role' | 'strategy' | 'repetition'> {
  return { preset: preset.name, side: side.label.en, role: side.role, strategy: side.strategy, repetition };
}

export function pitfallRunRecord(preset: PitfallPreset, side: PitfallSide, repetition: number, run: RunView): PitfallRunRecord {
  const { sold, soldTwice, oversold, exclusionViolations, lockTimeouts, conflictRetries } = benchRow(run);
  return {
    ...whichRun(preset, side, repetition),
    runId: run.id,
    status: run.status,
    failure: run.failure,
    verdict: pitfallVerdict(preset, side, run),
    soldTwice,
    oversold,
    exclusionViolations,
    lockTimeouts,
    orders: run.result?.reconciliation.orders ?? 0,
    sold,
    conflictRetries,
    faultsFired: run.result?.faults?.length ?? 0,
    unitsPerSec: run.result?.contendedPhase?.unitsPerSec ?? null,
  };
}

/** A side that never came to an end of its own: it could not be queued, or was lost while running (the lab went away). */
export function failedRunRecord(preset: PitfallPreset, side: PitfallSide, repetition: number, reason: string, runId: string | null = null): PitfallRunRecord {
  return {
    ...whichRun(preset, side, repetition),
    runId,
    status: 'failed',
    failure: reason,
    verdict: 'failed',
    soldTwice: 0,
    oversold: 0,
    exclusionViolations: 0,
    lockTimeouts: 0,
    orders: 0,
    sold: 0,
    conflictRetries: 0,
    faultsFired: 0,
    unitsPerSec: null,
  };
}

/** The pitfalls whose cost is throughput: their report shows each side's units per second beside the verdicts. */
const COSTS_THROUGHPUT: readonly PitfallSign[] = ['hot-key'];

function meanUnitsPerSec(runs: readonly PitfallRunRecord[]): number | null {
  const figures = runs.flatMap((run) => (run.unitsPerSec === null ? [] : [run.unitsPerSec]));
  return figures.length ? Math.round((figures.reduce((sum, x) => sum + x, 0) / figures.length) * 10) / 10 : null;
}

export function tallyPreset(preset: PitfallPreset, runs: readonly PitfallRunRecord[]): PitfallTally {
  const own = runs.filter((run) => run.preset === preset.name);
  const count = (role: PitfallSide['role']) => {
    const sideRuns = own.filter((run) => run.role === role);
    return { expected: sideRuns.filter((run) => isExpectedVerdict(run.verdict)).length, runs: sideRuns.length, failed: sideRuns.filter((run) => run.verdict === 'failed').length };
  };
  const broken = count('broken');
  const fix = count('fix');
  return {
    preset: preset.name,
    title: preset.title.en,
    shows: preset.shows,
    broken: { showed: broken.expected, runs: broken.runs, failed: broken.failed },
    fix: { clean: fix.expected, runs: fix.runs, failed: fix.failed },
    brokenTargetMet: broken.runs > 0 && broken.expected / broken.runs >= BROKEN_TARGET,
    fixTargetMet: fix.runs > 0 && fix.expected / fix.runs >= FIX_TARGET,
    ...(COSTS_THROUGHPUT.includes(preset.shows)
      ? { unitsPerSec: { broken: meanUnitsPerSec(own.filter((run) => run.role === 'broken')), fix: meanUnitsPerSec(own.filter((run) => run.role === 'fix')) } }
      : {}),
  };
}

const perSec = (figure: number | null) => (figure === null ? '–' : String(figure));

/** `broken 24 vs fix 180 units/s`, for a pitfall whose cost is throughput; '' for the others. */
function throughputText(tally: PitfallTally): string {
  return tally.unitsPerSec ? `broken ${perSec(tally.unitsPerSec.broken)} vs fix ${perSec(tally.unitsPerSec.fix)} units/s` : '';
}

/** The line a preset gets in the terminal: `broken 19/20 · fix 20/20 clean` (and the units/s of a throughput pitfall). */
export function tallyLine(tally: PitfallTally): string {
  const failed = tally.broken.failed + tally.fix.failed;
  const throughput = throughputText(tally);
  return `broken ${tally.broken.showed}/${tally.broken.runs} · fix ${tally.fix.clean}/${tally.fix.runs} clean${failed ? ` · ${failed} failed` : ''}${throughput ? ` · ${throughput}` : ''}`;
}

function targetCell(tally: PitfallTally): string {
  if (tally.brokenTargetMet && tally.fixTargetMet) return 'met';
  return `NOT met (${[!tally.brokenTargetMet && 'broken', !tally.fixTargetMet && 'fix'].filter(Boolean).join(', ')})`;
}

export function pitfallsMarkdown(report: PitfallsReport): string {
  const m = report.machine;
  return [
    `Pitfall presets, each side run ${report.repeat} time(s); ${report.instances} instances; ${m.cpus} cores, ${m.memoryGb} GB, Node ${m.node}. Target: broken ≥ ${BROKEN_TARGET * 100} % showed, fix ${FIX_TARGET * 100} % clean.`,
    '',
    '| preset | shows | broken showed | fix clean | failed runs | target |',
    '|---|---|---:|---:|---:|---|',
    ...report.presets.map((t) => `| ${t.preset} | ${t.shows} | ${t.broken.showed}/${t.broken.runs} | ${t.fix.clean}/${t.fix.runs} | ${t.broken.failed + t.fix.failed} | ${targetCell(t)} |`),
    '',
    `All targets ${report.allTargetsMet ? 'met' : 'NOT met'}.`,
    ...report.presets.filter((t) => t.unitsPerSec).map((t) => `\n${t.preset}: its cost is throughput — units sold per second, first order to sell-out (mean of the completed runs): ${throughputText(t)}.`),
    '',
    '| preset | side | role | # | run | verdict | sold twice | oversold | excl. violations | lock timeouts | orders | sold | conflict retries | faults fired | units/s |',
    '|---|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.runs.map(
      (r) =>
        `| ${r.preset} | ${r.side} | ${r.role} | ${r.repetition} | ${r.runId ?? '–'} | ${r.verdict}${r.failure ? `: ${r.failure}` : ''} | ${r.soldTwice} | ${r.oversold} | ${r.exclusionViolations} | ${r.lockTimeouts} | ${r.orders} | ${r.sold} | ${r.conflictRetries} | ${r.faultsFired} | ${perSec(r.unitsPerSec)} |`,
    ),
  ].join('\n');
}
