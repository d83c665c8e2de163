import { strategyEntry, type StrategyName } from './catalogue/catalogue';
import type { LockChoiceTexts, LockLease, StockStore, StrategyKind, StrategySetting } from './catalogue/strategy-entry';
import type { Locale } from './locale';
import type { LockService } from './lock-services';

export { isStrategyName, lockServicesNeededBy, STRATEGY_CATALOGUE, STRATEGY_NAMES, strategyEntry, type StrategyName } from './catalogue/catalogue';
export { defineStrategy, type LockChoiceTexts, type LockLease, type StockStore, type StrategyEntry, type StrategyKind, type StrategySetting, type StrategyTexts } from './catalogue/strategy-entry';

/** A script a strategy sends to its store, shown in the dashboard's explain view. */
export interface StrategyScript {
  name: string;
  language: 'lua' | 'sql';
  source: string;
}

/** Where a strategy stands in the comparison: its catalogue entry's words, and its lock's name in the lock bench. */
export interface LockChoice extends LockChoiceTexts {
  /** Its lock's name in `npm run bench:locks`, when its lock is measured there on its own. */
  benchLock?: string;
}

/** A strategy as GET /api/strategies serves it: its catalogue entry in one language, and the scripts it sends. */
export interface StrategyDescription {
  name: StrategyName;
  title: string;
  kind: StrategyKind;
  store: StockStore;
  /** The run settings this strategy reads: the run form shows and sends only those. */
  settings: StrategySetting[];
  /** Whether a business time longer than the lock TTL lets a second order in (see LockLease). */
  lease: LockLease;
  /** Right to use on a healthy store (StrategyEntry.safe says exactly what that means). */
  safe: boolean;
  description: string;
  guarantee: string;
  pitfall: string;
  /** How to make the pitfall happen on demand (e.g. "business delay > lock TTL"). */
  reproduce: string;
  /** Where the behaviour shows on the dashboard: what the Explain view tells the audience to look at. */
  symptom: string;
  /** What the strategy does for one order, step by step. */
  steps: string[];
  scripts: StrategyScript[];
  /** The lock services it cannot run without (absent: Redis and MariaDB only). */
  needs?: LockService[];
  /** Where it stands in "Choosing a lock" (docs/choosing-a-lock.md, the Explain view); absent: not compared there. */
  choice?: LockChoice;
  /** 'slow' when a contended lock changes hands only a few times a second (StrategyEntry.grantRate). Absent: 'fast'. */
  grantRate?: 'fast' | 'slow';
}

/** Everything the catalogue knows of a strategy: its description but the scripts, which the stock library loads. */
export type CatalogueDescription = Omit<StrategyDescription, 'scripts'>;

/** A strategy's catalogue entry as its description in `locale` (the API's default is 'en'; `?lang=` or Accept-Language picks another). */
export function describeStrategy(name: StrategyName, locale: Locale = 'en'): CatalogueDescription {
  const entry = strategyEntry(name);
  const { title, description, guarantee, pitfall, reproduce, symptom, steps, choice } = entry.texts[locale];
  return {
    name,
    title,
    kind: entry.kind,
    store: entry.store,
    settings: [...entry.settings],
    lease: entry.lease,
    safe: entry.safe,
    ...(entry.needs.length ? { needs: [...entry.needs] } : {}),
    ...(entry.grantRate ? { grantRate: entry.grantRate } : {}),
    description,
    guarantee,
    pitfall,
    reproduce,
    symptom,
    steps: [...steps],
    ...(choice ? { choice: { ...(entry.benchLock ? { benchLock: entry.benchLock } : {}), ...choice } } : {}),
  };
}
