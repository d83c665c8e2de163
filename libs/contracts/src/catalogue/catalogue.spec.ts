import { LOCALES } from '../locale';
import { LOCK_FAULTS } from '../lock-faults';
import { describeStrategy } from '../strategies';
import { lockServicesNeededBy, STRATEGY_CATALOGUE, STRATEGY_NAMES } from './catalogue';
import type { StrategyTexts } from './strategy-entry';

/** Every text of an entry in one language, by where it sits (steps one by one, each fault's). */
function textsOf({ choice, steps, ...texts }: StrategyTexts): Record<string, string> {
  return {
    ...texts,
    ...Object.fromEntries(steps.map((step, i) => [`steps[${i}]`, step])),
    ...(choice ? { 'choice.runsOn': choice.runsOn, 'choice.complexity': choice.complexity, 'choice.reliability': choice.reliability } : {}),
    ...(choice ? Object.fromEntries(LOCK_FAULTS.map((fault) => [`choice.underFault.${fault}`, choice.underFault[fault]])) : {}),
  };
}

describe('the strategy catalogue', () => {
  it('names each strategy once, and its names are the names, in the order of its table', () => {
    expect(new Set(STRATEGY_NAMES).size).toBe(STRATEGY_CATALOGUE.length);
    expect(STRATEGY_NAMES).toEqual(STRATEGY_CATALOGUE.map((entry) => entry.name));
    expect(STRATEGY_NAMES.map((name) => describeStrategy(name).name)).toEqual(STRATEGY_NAMES);
  });

  // The type makes every language present; this makes every language say as much: no text, step or fault left out or empty in one.
  it.each(STRATEGY_NAMES)('%s says the same things in every language', (name) => {
    const { texts } = STRATEGY_CATALOGUE.find((entry) => entry.name === name)!;
    const english = Object.keys(textsOf(texts.en));
    for (const locale of LOCALES) {
      const said = textsOf(texts[locale]);
      expect({ locale, fields: Object.keys(said) }).toEqual({ locale, fields: english });
      expect({ locale, empty: Object.keys(said).filter((field) => !said[field].trim()) }).toEqual({ locale, empty: [] });
    }
  });

  it('gives a lock bench name only to a strategy compared in "Choosing a lock"', () => {
    expect(STRATEGY_CATALOGUE.filter((entry) => entry.benchLock && !entry.texts.en.choice).map((entry) => entry.name)).toEqual([]);
  });

  it('says which lock services a set of strategies needs, each once, and none for those on Redis and MariaDB alone', () => {
    expect(lockServicesNeededBy(['etcd', 'redlock', 'redlock-lib', 'zookeeper'])).toEqual(['etcd', 'zookeeper', 'redis-nodes']);
    expect(lockServicesNeededBy(['uuid-lua', 'db-conditional'])).toEqual([]);
    expect(lockServicesNeededBy(STRATEGY_NAMES).sort()).toEqual(['etcd', 'redis-cluster', 'redis-nodes', 'zookeeper']);
  });
});
