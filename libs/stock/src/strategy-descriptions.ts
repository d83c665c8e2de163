import { describeStrategy, STRATEGY_NAMES, type Locale, type StrategyDescription } from '@oversell/contracts';
import { STRATEGIES } from './strategy-table';

/**
 * Every strategy as GET /api/strategies serves it, in the order of the tables: its catalogue entry in
 * `locale` and the scripts its row sends (code: the same in every language).
 */
export function describeStrategies(locale: Locale = 'en'): StrategyDescription[] {
  return STRATEGY_NAMES.map((name) => ({ ...describeStrategy(name, locale), scripts: [...STRATEGIES[name].scripts] }));
}
