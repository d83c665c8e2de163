import { isStrategyName, strategyEntry, type StrategyName, type StrategyTexts } from '@oversell/contracts';
import { useLocale } from './use-locale';

/**
 * A strategy's texts in the page's language, from the catalogue where each language is written once; the
 * service's /api/strategies adds only what needs its runtime (the scripts it loaded).
 */
export function useStrategyTexts(): (name: StrategyName) => StrategyTexts {
  const locale = useLocale();
  return (name) => strategyEntry(name).texts[locale];
}

/** A run target's title in the page's language: a strategy's from the catalogue, anything else (`noop`) as named. */
export function useTargetTitle(): (target: string) => string {
  const texts = useStrategyTexts();
  return (target) => (isStrategyName(target) ? texts(target).title : target);
}
