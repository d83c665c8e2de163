import { describe, expect, it } from 'vitest';
import { CEILING_SCENARIO, SCENARIOS } from '../test/fixtures';
import { runScenarios } from './scenarios';

describe('runScenarios', () => {
  it('leaves out the ceiling scenario, which is for the load CLI\'s no-op target, not a strategy run', () => {
    expect(runScenarios([...SCENARIOS, CEILING_SCENARIO]).map((s) => s.name)).toEqual(['flash-sale']);
  });
});
