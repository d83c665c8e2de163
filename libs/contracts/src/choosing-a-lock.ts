import type { LockFault } from './lock-faults';
import type { Locale, Localized } from './locale';
import type { LockChoice, StrategyKind, StrategyName } from './strategies';

/**
 * "Which lock to choose", the articles' closing question, answered with this lab's figures:
 * `npm run choosing-a-lock` writes docs/choosing-a-lock.md and the JSON the dashboard's Explain view
 * renders. The words come from each strategy's catalogue entry (its texts' `choice`); the
 * figures from the bench, lock-bench and pitfalls reports, never typed by hand.
 */

/** The run a figure was measured in: the doc prints it beside the figures. */
export interface ChoiceSource {
  /** The report file read, relative to the repository. */
  file: string;
  command: string;
  startedAt: string;
  machine: { cpus: number; memoryGb: number; node: string; loadAverage?: number[] };
}

/** How one side of a pitfall preset that ran this strategy under a fault came out. */
export interface FaultOutcome {
  preset: string;
  role: 'broken' | 'fix';
  /** Runs that came out as the role expects (the broken side showed the pitfall, the fix stayed clean). */
  expected: number;
  runs: number;
  /** Units sold beyond the stock, over all these runs. */
  oversold: number;
  /** What the preset's runs show (oversold, deadlock, …). */
  shows: string;
}

export interface ChoiceRow {
  strategy: StrategyName;
  title: string;
  kind: StrategyKind;
  choice: LockChoice;
  /** From `npm run bench`: orders answered per second, p99 latency (ms) and units oversold; null when not measured. */
  ordersPerSec: number | null;
  p99Ms: number | null;
  oversold: number | null;
  /** From `npm run bench:locks`: the bare lock's sections per second and wait p99 (ms); null when not measured. */
  lockSectionsPerSec: number | null;
  lockWaitP99Ms: number | null;
  /** Of the lock bench's sections: acquires that gave up waiting, and ones that failed (a lock that errs measures its errors, not itself). */
  lockTimeouts: number | null;
  lockErrors: number | null;
  /** From `npm run pitfalls`: every preset side that ran this strategy under each fault (empty: not measured). */
  underFault: Record<LockFault, FaultOutcome[]>;
}

/** What `npm run choosing-a-lock` writes for the dashboard. */
export interface ChoosingALock {
  command: string;
  generatedAt: string;
  sources: { bench: ChoiceSource | null; locks: ChoiceSource | null; pitfalls: ChoiceSource | null };
  rows: ChoiceRow[];
}

/** What a figure missing from its report reads as: never a typed number. */
export const NOT_MEASURED: Localized = { en: 'not measured', 'zh-CN': '未测量' };

/** A figure as the tables show it: rounded to `digits`, or "not measured". */
export function figureText(value: number | null, digits = 0, locale: Locale = 'en'): string {
  return value === null ? NOT_MEASURED[locale] : value.toFixed(digits);
}

/** One preset side's outcome in a line: `mis-deletion, fix: clean 1/1` or `…, broken: showed oversold 1/1 (oversold 3)`. */
export function faultOutcomeText(outcome: FaultOutcome): string {
  const result = outcome.role === 'broken' ? `showed ${outcome.shows}` : 'clean';
  return `${outcome.preset}, ${outcome.role}: ${result} ${outcome.expected}/${outcome.runs}${outcome.oversold ? ` (oversold ${outcome.oversold})` : ''}`;
}

/** Every outcome of a strategy under one fault, or "not measured" when no run put it under that fault. */
export function faultOutcomesText(outcomes: readonly FaultOutcome[], locale: Locale = 'en'): string {
  return outcomes.length ? outcomes.map(faultOutcomeText).join('; ') : NOT_MEASURED[locale];
}
