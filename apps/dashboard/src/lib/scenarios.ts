import type { Scenario } from '@oversell/contracts';

/**
 * loadtests/scenarios/ceiling.json drives the load CLI's `--target noop`; as a run it would be a
 * strategy run of a million units labelled "ceiling". The dashboard measures the ceiling with a batch's
 * own no-op run instead.
 */
const LOAD_CLI_ONLY = new Set(['ceiling']);

/** The scenarios a strategy run (the lab form, a compare batch) can be filled from. */
export function runScenarios(scenarios: readonly Scenario[]): Scenario[] {
  return scenarios.filter((s) => !LOAD_CLI_ONLY.has(s.name));
}
