import {
  DEFAULT_BUSINESS_DELAY_MS,
  DEFAULT_LOCK_TTL_MS,
  DEFAULT_ORDER_WRITE,
  isCeilingTarget,
  type LoadProfile,
  type RunBatchRequest,
  type RunParams,
  type RunSettings,
  type Scenario,
  type StrategyDescription,
  type StrategyName,
} from '@oversell/contracts';
import { toFaultFormValues, toFaultSettings, type FaultFormValues } from './fault-form';

/** How a run's load is bounded: by time or by request count. */
export type LoadBound = 'duration' | 'requests';

/** Each setting as a form holds it: a number as the text typed, every field present. */
type AsTyped<T> = { [K in keyof T]-?: Exclude<T[K], undefined> extends number ? string : Exclude<T[K], undefined> };

/**
 * The lab form as typed: the run's settings (RunSettings), its load and faults. Numbers stay strings so a field can be empty while being edited; the server
 * validates the numbers and its messages are shown next to the fields.
 */
export interface RunFormValues extends AsTyped<Pick<RunSettings, 'strategy' | 'initialStock' | 'lockTtlMs' | 'businessDelayMs' | 'segments' | 'orderWrite'>> {
  connections: string;
  bound: LoadBound;
  durationSec: string;
  totalRequests: string;
  arrivalRate: string;
  /** Faults to inject during the run (none by default). */
  faults: FaultFormValues[];
  /** The scenario the values were last filled from, reported with the run. */
  scenario?: string;
}

export const DEFAULT_FORM_VALUES: RunFormValues = {
  strategy: 'no-lock',
  initialStock: '100',
  lockTtlMs: String(DEFAULT_LOCK_TTL_MS),
  businessDelayMs: String(DEFAULT_BUSINESS_DELAY_MS),
  segments: '5',
  orderWrite: DEFAULT_ORDER_WRITE,
  connections: '50',
  bound: 'duration',
  durationSec: '10',
  totalRequests: '1000',
  arrivalRate: '',
  faults: [],
};

function text(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** Empty means "not given"; anything else goes to the server as typed, to be validated there. */
function number(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/** What a scenario and a stored run both say about a run; what they leave out keeps the form's value. */
type GivenSettings = Pick<RunParams, 'initialStock' | 'lockTtlMs' | 'businessDelayMs' | 'segments' | 'load'> & { strategy?: StrategyName };

function formFromSettings(given: GivenSettings, current: RunFormValues): Omit<RunFormValues, 'orderWrite' | 'faults' | 'scenario'> {
  const { load } = given;
  return {
    strategy: given.strategy ?? current.strategy,
    initialStock: text(given.initialStock),
    lockTtlMs: text(given.lockTtlMs ?? DEFAULT_LOCK_TTL_MS),
    businessDelayMs: text(given.businessDelayMs ?? DEFAULT_BUSINESS_DELAY_MS),
    segments: given.segments === undefined ? current.segments : text(given.segments),
    connections: text(load.connections),
    bound: load.totalRequests !== undefined && load.durationSec === undefined ? 'requests' : 'duration',
    durationSec: load.durationSec === undefined ? current.durationSec : text(load.durationSec),
    totalRequests: load.totalRequests === undefined ? current.totalRequests : text(load.totalRequests),
    arrivalRate: text(load.arrivalRate),
  };
}

export function formFromScenario(scenario: Scenario, current: RunFormValues): RunFormValues {
  return {
    ...formFromSettings(scenario, current),
    orderWrite: current.orderWrite,
    // A scenario's faults replace the form's; one without any leaves the presenter's.
    faults: scenario.faults ? scenario.faults.map(toFaultFormValues) : current.faults,
    scenario: scenario.name,
  };
}

/**
 * A stored run's own settings, as the form shows them: starting the form then runs it again. Undefined
 * for a no-op run, which the form does not start. A run without faults had none, so none are kept.
 */
export function formFromParams(params: RunParams, current: RunFormValues): RunFormValues | undefined {
  if (isCeilingTarget(params.strategy)) return undefined;
  return {
    ...formFromSettings({ ...params, strategy: params.strategy }, current),
    orderWrite: params.orderWrite ?? DEFAULT_ORDER_WRITE,
    faults: (params.faults ?? []).map(toFaultFormValues),
    scenario: params.scenario,
  };
}

/** Whether the strategy reads the number of segments, as its description says; unknown until the descriptions load. */
export function splitsStock(strategy: StrategyDescription | undefined): boolean {
  return strategy?.settings.includes('segments') ?? false;
}

/** The settings shared by a single run and a "run all" batch. */
function runSettings(values: RunFormValues, withSegments: boolean): Omit<RunBatchRequest, 'strategies' | 'includeCeiling'> {
  // An empty required field is sent as missing on purpose: the server's 400 then names that field.
  const load: LoadProfile = {
    connections: number(values.connections) as number,
    arrivalRate: number(values.arrivalRate),
    ...(values.bound === 'duration'
      ? { durationSec: number(values.durationSec) }
      : { totalRequests: number(values.totalRequests) }),
  };
  return {
    initialStock: number(values.initialStock) as number,
    lockTtlMs: number(values.lockTtlMs),
    businessDelayMs: number(values.businessDelayMs),
    // Only a strategy that splits its stock reads the field; the others never see it.
    segments: withSegments ? number(values.segments) : undefined,
    // The default is not sent, so a run's params read as before unless it queues its orders.
    ...(values.orderWrite === DEFAULT_ORDER_WRITE ? {} : { orderWrite: values.orderWrite }),
    load,
    faults: values.faults.length ? values.faults.map(toFaultSettings) : undefined,
    scenario: values.scenario,
  };
}

/** `strategy` is the chosen strategy's description: it says which settings the run sends. */
export function toRunParams(values: RunFormValues, strategy: StrategyDescription | undefined): RunParams {
  return { strategy: values.strategy, ...runSettings(values, splitsStock(strategy)) };
}

/** Every strategy with the form's settings; segments is sent so a strategy that splits its stock gets it too. */
export function toBatchRequest(values: RunFormValues): RunBatchRequest {
  return runSettings(values, true);
}

/** A scenario as a batch: the compare view's "run all" with a scenario other than the form's. */
export function scenarioToBatchRequest(scenario: Scenario): RunBatchRequest {
  const { name, initialStock, lockTtlMs, businessDelayMs, segments, load, faults } = scenario;
  return { initialStock, lockTtlMs, businessDelayMs, segments, load, ...(faults ? { faults } : {}), scenario: name };
}
