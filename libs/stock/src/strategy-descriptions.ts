import { describeStrategy, STRATEGY_NAMES, type StrategyDescription } from '@oversell/contracts';
import { STRATEGIES } from './strategy-table';

/** Every strategy as GET /api/strategies serves it, in the order of the tables: its catalogue entry and the scripts its row sends. */
export function describeStrategies(): StrategyDescription[] {
  return STRATEGY_NAMES.map((name) => ({ ...describeStrategy(name), scripts: [...STRATEGIES[name].scripts] }));
}
