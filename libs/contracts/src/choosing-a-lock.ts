import type { FaultKind } from './faults';
import type { Locale, Localized } from './locale';
import type { StrategyKind, StrategyName } from './strategies';

/**
 * "Which lock to choose", the articles' closing question, answered with this lab's figures:
 * `npm run choosing-a-lock` writes docs/choosing-a-lock.md and the JSON the dashboard's Explain view
 * renders. The words come from each strategy's own description (StrategyDescription.choice); the
 * figures from the bench, lock-bench and pitfalls reports, never typed by hand.
 */

/** The faults the comparison is made under, in its column order. */
export const LOCK_FAULTS = ['crash', 'pause', 'store-cut', 'failover'] as const;
export type LockFault = (typeof LOCK_FAULTS)[number];

export const LOCK_FAULT_TITLES: Record<LockFault, Localized> = {
  crash: { en: 'holder crashes', 'zh-CN': '持有者崩溃' },
  pause: { en: 'holder paused past the lease', 'zh-CN': '持有者停顿超过租约' },
  'store-cut': { en: 'store out of reach', 'zh-CN': '存储不可达' },
  failover: { en: 'Redis master fails over', 'zh-CN': 'Redis 主从切换' },
};

/**
 * Which comparison fault a run's fault is: a pause at a fault point and a stop-the-world pause are both
 * a holder that stops while the world goes on. Clock skew and the double click are no lock's fault here.
 */
export const LOCK_FAULT_OF: Partial<Record<FaultKind, LockFault>> = {
  crash: 'crash',
  pause: 'pause',
  'stop-the-world': 'pause',
  'store-cut': 'store-cut',
  failover: 'failover',
};

/** Where a strategy stands in the comparison, in words: written once, in the strategy's own description. */
export interface LockChoice {
  /** What it needs running besides the order service (e.g. "one Redis", "a three-node etcd cluster in production"). */
  runsOn: string;
  /** How much there is to get right, and why, in a few words (e.g. "low: one Lua script"). */
  complexity: string;
  /** The reliability class: what it guarantees and the limit of that guarantee. */
  reliability: string;
  /** What happens to the orders under each fault, as the design says it should. */
  underFault: Record<LockFault, string>;
  /** Its lock's name in `npm run bench:locks`, when its lock is measured there on its own. */
  benchLock?: string;
}

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
