import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { faultSettingsProblems, isStrategyName, RUN_LIMITS, STRATEGY_NAMES, type FaultSettings, type Scenario } from '@oversell/contracts';
import { validateLoadProfile } from './load-profile';
import { expectKnownKeys, expectObject, InvalidFieldError, readNumber, requireNumber, requireString } from './validation';

/** loadtests/scenarios, seen from runner/ (ts) and from dist/ (built) alike: both sit one level below. */
export const SCENARIOS_DIR = resolve(__dirname, '..', 'scenarios');

const SCENARIO_KEYS: readonly (keyof Scenario)[] = [
  'name',
  'description',
  'strategy',
  'initialStock',
  'lockTtlMs',
  'businessDelayMs',
  'segments',
  'load',
  'orderP99Ms',
  'faults',
];

export class UnknownScenarioError extends Error {
  constructor(
    readonly scenario: string,
    readonly available: string[],
  ) {
    super(`Unknown scenario "${scenario}". Available: ${available.join(', ') || '(none)'}`);
    this.name = 'UnknownScenarioError';
  }
}

/** Names of the scenario files in `dir`, sorted. */
export function listScenarios(dir = SCENARIOS_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/**
 * Reads and validates `<dir>/<name>.json`, or the file itself when `name` ends in .json (a scenario of
 * one's own, kept outside loadtests/scenarios); errors name the file and the field at fault.
 */
export function loadScenario(name: string, dir = SCENARIOS_DIR): Scenario {
  if (name.endsWith('.json')) return readScenario(resolve(name), basename(name, '.json'));
  const available = listScenarios(dir);
  if (!available.includes(name)) throw new UnknownScenarioError(name, available);
  return readScenario(join(dir, `${name}.json`), name);
}

function readScenario(file: string, name: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidFieldError('(file)', `cannot be read: ${(error as Error).message}`, file);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidFieldError('(file)', `is not valid JSON: ${(error as Error).message}`, file);
  }
  try {
    return validateScenario(parsed, name);
  } catch (error) {
    throw error instanceof InvalidFieldError ? error.from(file) : error;
  }
}

/** Checks a parsed scenario; `expectedName` is its file name, which `name` must repeat. */
export function validateScenario(value: unknown, expectedName: string): Scenario {
  const fields = expectObject(value, '');
  expectKnownKeys(fields, SCENARIO_KEYS);
  const name = requireString(fields, 'name');
  if (name !== expectedName) {
    throw new InvalidFieldError('name', `must match the file name "${expectedName}" (got "${name}")`);
  }
  const strategy = fields.strategy;
  if (strategy !== undefined && !isStrategyName(strategy)) {
    throw new InvalidFieldError('strategy', `must be one of ${STRATEGY_NAMES.join(', ')} (got ${JSON.stringify(strategy)})`);
  }
  return {
    name,
    description: requireString(fields, 'description'),
    strategy,
    initialStock: requireNumber(fields, 'initialStock', { min: 1, max: RUN_LIMITS.maxStock, integer: true }),
    lockTtlMs: readNumber(fields, 'lockTtlMs', { min: 1, max: RUN_LIMITS.maxLockTtlMs, integer: true }),
    businessDelayMs: readNumber(fields, 'businessDelayMs', { min: 0, max: RUN_LIMITS.maxBusinessDelayMs, integer: true }),
    segments: readNumber(fields, 'segments', { min: 1, max: 1000, integer: true }),
    load: validateLoadProfile(fields.load),
    orderP99Ms: readNumber(fields, 'orderP99Ms', { min: 1, max: RUN_LIMITS.maxDurationSec * 1000, integer: true }),
    ...(fields.faults === undefined ? {} : { faults: validateFaults(fields.faults) }),
  };
}

/** By the service's own rules (faultSettingsProblems), so a file it would refuse stops here, naming the same field (in English, as the rest of the runner's field errors). */
function validateFaults(faults: unknown): FaultSettings[] {
  const [first] = faultSettingsProblems(faults);
  if (first) throw new InvalidFieldError(first.field, `is refused: ${first.message.en}`);
  return faults as FaultSettings[];
}
