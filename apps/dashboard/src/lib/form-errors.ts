import { RUN_LIMITS, STRATEGY_SETTINGS, type FaultSettings, type FaultSettingsProblem, type Locale } from '@oversell/contracts';
import { ApiError } from '../api/client';
import type { RunFormValues } from './run-form';

export type FormField = Exclude<keyof RunFormValues, 'bound' | 'scenario' | 'faults'>;

/** The fields the form shows for these values: segments only for a strategy that splits its stock, one load bound. */
export function visibleFields(values: RunFormValues, segmented: boolean): FormField[] {
  return [
    'strategy',
    'initialStock',
    'lockTtlMs',
    'businessDelayMs',
    ...(segmented ? (['segments'] as const) : []),
    'orderWrite',
    'connections',
    values.bound === 'duration' ? 'durationSec' : 'totalRequests',
    'arrivalRate',
  ];
}

/** The fields of one fault the form can show a message next to. */
const FAULT_FIELDS: (keyof FaultSettings)[] = ['kind', 'at', 'once', 'every', 'probability', 'durationMs', 'offsetMs', 'instance', 'copies', 'idempotencyKey'];

/** The request field of one fault's field, as the API and faultSettingsProblems name it. */
export function faultField(index: number, name: keyof FaultSettings): string {
  return `faults[${index}].${name}`;
}

/** The request field(s) each form field becomes; load settings are nested under `load`. */
const REQUEST_FIELDS: Record<FormField, string[]> = {
  strategy: ['strategy'],
  initialStock: ['initialStock'],
  lockTtlMs: ['lockTtlMs'],
  businessDelayMs: ['businessDelayMs'],
  segments: ['segments'],
  orderWrite: ['orderWrite'],
  connections: ['load.connections', 'connections'],
  durationSec: ['load.durationSec', 'durationSec'],
  totalRequests: ['load.totalRequests', 'totalRequests'],
  arrivalRate: ['load.arrivalRate', 'arrivalRate'],
};

export interface FormErrors {
  byField: Partial<Record<FormField, string>>;
  /** Messages about the faults, by request field (faultField). */
  byFault: Record<string, string>;
  /** The message when it belongs to no visible field (or the request failed for another reason). */
  general?: string;
}

/**
 * Spreads a failed submission over the form: each field's message next to it, the rest on top. The
 * faults' problems found before sending (`problems`, in the page's `locale`) come first; the service's 400 about them after.
 */
export function formErrors(error: Error | null, visible: readonly FormField[], locale: Locale, faultCount = 0, problems: readonly FaultSettingsProblem[] = []): FormErrors {
  const byFault: Record<string, string> = {};
  for (const problem of problems) byFault[problem.field] ??= problem.message[locale];
  const apiError = error instanceof ApiError ? error : undefined;
  const byField: FormErrors['byField'] = {};
  if (apiError) {
    for (const field of visible) {
      const message = REQUEST_FIELDS[field].map((name) => apiError.messageFor(name)).find(Boolean);
      if (message) byField[field] = message;
    }
    for (let index = 0; index < faultCount; index += 1) {
      for (const name of FAULT_FIELDS) {
        const message = apiError.messageFor(faultField(index, name));
        if (message) byFault[faultField(index, name)] ??= message;
      }
    }
  }
  // A problem no field shows (a fault list too long, another request failure) goes on top.
  const shown = Object.keys(byField).length + Object.keys(byFault).length > 0;
  const unplaced = problems.find((p) => !FAULT_FIELDS.some((name) => p.field.endsWith(`].${name}`)))?.message[locale];
  return { byField, byFault, general: unplaced ?? (error && !shown ? error.message : undefined) };
}

/** A field's one problem, found before sending: nothing typed where a value is needed, not a whole number, or out of bounds. */
export type FieldProblem = { kind: 'required' } | { kind: 'whole' } | { kind: 'range'; min: number; max: number };

export type NumberFormField = Exclude<FormField, 'strategy' | 'orderWrite'>;

/** Each number field's bounds, as the service checks them; `required`: the run cannot go without it (the rest have defaults). */
const NUMBER_FIELDS: Record<NumberFormField, { min: number; max: number; required: boolean }> = {
  initialStock: { min: 0, max: RUN_LIMITS.maxStock, required: true },
  lockTtlMs: { ...STRATEGY_SETTINGS.lockTtlMs, required: false },
  businessDelayMs: { ...STRATEGY_SETTINGS.businessDelayMs, required: false },
  segments: { ...STRATEGY_SETTINGS.segments, required: false },
  connections: { min: 1, max: RUN_LIMITS.maxConnections, required: true },
  durationSec: { min: 1, max: RUN_LIMITS.maxDurationSec, required: true },
  totalRequests: { min: 1, max: RUN_LIMITS.maxTotalRequests, required: true },
  arrivalRate: { min: 1, max: RUN_LIMITS.maxArrivalRate, required: false },
};

function isNumberField(field: FormField): field is NumberFormField {
  return field in NUMBER_FIELDS;
}

/** The bounds a number field shows (its input's min and max). */
export function fieldBounds(field: NumberFormField): { min: number; max: number } {
  const { min, max } = NUMBER_FIELDS[field];
  return { min, max };
}

/**
 * The visible fields' problems, one per field, checked before the request goes: the first that applies
 * of empty, not whole, out of bounds. The service checks the same rules; its answer is then only needed
 * for what the form cannot know.
 */
export function fieldProblems(values: RunFormValues, visible: readonly FormField[]): Partial<Record<FormField, FieldProblem>> {
  const problems: Partial<Record<FormField, FieldProblem>> = {};
  for (const field of visible) {
    if (!isNumberField(field)) continue;
    const { min, max, required } = NUMBER_FIELDS[field];
    const text = values[field].trim();
    if (text === '') {
      if (required) problems[field] = { kind: 'required' };
      continue;
    }
    const value = Number(text);
    if (!Number.isInteger(value)) problems[field] = { kind: 'whole' };
    else if (value < min || value > max) problems[field] = { kind: 'range', min, max };
  }
  return problems;
}
