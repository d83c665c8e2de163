import { faultFieldsOf, type FaultKind, type FaultPointName, type FaultSettings, type FaultStore } from '@oversell/contracts';

/** How often a fault at a point fires: the first passage only, every Nth, or each with a probability. */
export type FaultFrequency = 'once' | 'every' | 'probability';

/** One fault as typed in the lab form; numbers stay strings while being edited, like the run form's. */
export interface FaultFormValues {
  kind: FaultKind;
  at: FaultPointName;
  frequency: FaultFrequency;
  every: string;
  probability: string;
  durationMs: string;
  /** store-cut: which store. */
  store: FaultStore;
  offsetMs: string;
  /** Empty: every instance. */
  instance: string;
  copies: string;
  idempotencyKey: boolean;
}

export const DEFAULT_FAULT: FaultFormValues = {
  kind: 'pause',
  at: 'lock-acquired',
  frequency: 'once',
  every: '10',
  probability: '0.1',
  durationMs: '500',
  store: 'redis',
  offsetMs: '5000',
  instance: '',
  copies: '2',
  idempotencyKey: true,
};

/** Empty means "not given"; anything else is sent as typed, for the same rules to judge as on the service. */
function number(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/** The frequency the form shows and sends: 'once' where the kind reads no other (a failover fires once per run). */
export function shownFrequency(values: Pick<FaultFormValues, 'kind' | 'frequency'>): FaultFrequency {
  return values.frequency === 'once' || faultFieldsOf(values.kind).includes(values.frequency) ? values.frequency : 'once';
}

/** The fault as the run request carries it: only the fields its kind reads. */
export function toFaultSettings(values: FaultFormValues): FaultSettings {
  const reads = new Set(faultFieldsOf(values.kind));
  const given = <T>(field: keyof FaultSettings, value: T) => (reads.has(field) ? value : undefined);
  const frequency = shownFrequency(values);
  const settings: FaultSettings = {
    kind: values.kind,
    at: given('at', values.at),
    // `once` is the default when neither of the others is given: the request says it anyway, plainly.
    once: given('once', frequency === 'once' ? true : undefined),
    every: given('every', frequency === 'every' ? number(values.every) : undefined),
    probability: given('probability', frequency === 'probability' ? number(values.probability) : undefined),
    durationMs: given('durationMs', number(values.durationMs)),
    store: given('store', values.store),
    offsetMs: given('offsetMs', number(values.offsetMs)),
    instance: given('instance', number(values.instance)),
    copies: given('copies', number(values.copies)),
    idempotencyKey: given('idempotencyKey', values.idempotencyKey),
  };
  // Fields left undefined are dropped by JSON anyway; dropping them here keeps the object readable in tests and logs.
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as FaultSettings;
}

/** A fault as the form shows it (a scenario's): the fields it leaves out keep the form's defaults. */
export function toFaultFormValues(fault: FaultSettings): FaultFormValues {
  const text = (value: number | undefined, fallback: string) => (value === undefined ? fallback : String(value));
  return {
    kind: fault.kind,
    at: fault.at ?? DEFAULT_FAULT.at,
    frequency: fault.every !== undefined ? 'every' : fault.probability !== undefined ? 'probability' : 'once',
    every: text(fault.every, DEFAULT_FAULT.every),
    probability: text(fault.probability, DEFAULT_FAULT.probability),
    durationMs: text(fault.durationMs, DEFAULT_FAULT.durationMs),
    store: fault.store ?? DEFAULT_FAULT.store,
    offsetMs: text(fault.offsetMs, DEFAULT_FAULT.offsetMs),
    instance: text(fault.instance, ''),
    copies: text(fault.copies, DEFAULT_FAULT.copies),
    idempotencyKey: fault.idempotencyKey ?? DEFAULT_FAULT.idempotencyKey,
  };
}
