import { LOCK_FAULTS, STRATEGY_NAMES, strategyEntry } from '@oversell/contracts';
import { describeStrategies } from './strategy-descriptions';

describe('the strategies described without a store', () => {
  it('gives every registered strategy, in the order of the tables, as the API serves it', () => {
    const descriptions = describeStrategies();
    expect(descriptions.map((d) => d.name)).toEqual([...STRATEGY_NAMES]);
  });

  it('words them in the language asked for, with the same scripts', () => {
    const [en, zh] = [describeStrategies(), describeStrategies('zh-CN')];
    for (const [index, description] of zh.entries()) {
      expect(description.title).toBe(strategyEntry(description.name).texts['zh-CN'].title);
      expect(description.steps).toEqual(strategyEntry(description.name).texts['zh-CN'].steps);
      expect(description.scripts).toEqual(en[index].scripts);
    }
    expect(en[0].title).toBe(strategyEntry(en[0].name).texts.en.title);
  });

  // docs/choosing-a-lock.md compares the strategies whose descriptions say where they stand.
  it('places the articles\' locks and the atomic and database ways in "Choosing a lock", each under every fault', () => {
    const compared = describeStrategies().filter((d) => d.choice);
    expect(compared.map((d) => d.name)).toEqual(expect.arrayContaining(['uuid-lua', 'watchdog', 'redlock', 'etcd', 'zookeeper', 'db-lock-table', 'db-pessimistic', 'db-conditional', 'lua-decrement', 'decr-check']));
    for (const { name, choice } of compared) {
      expect({ name, faults: LOCK_FAULTS.filter((fault) => !choice!.underFault[fault]?.trim()) }).toEqual({ name, faults: [] });
    }
  });
});
