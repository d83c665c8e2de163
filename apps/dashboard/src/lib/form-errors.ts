import type { FaultSettings, FaultSettingsProblem } from '@oversell/contracts';
import { ApiError } from '../api/client';
import type { RunFormValues } from './run-form';

export type FormField = Exclude<keyof RunFormValues, 'bound' | 'scenario' | 'faults'>;

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
 * faults' problems found before sending (`problems`) come first; the service's 400 about them after.
 */
export function formErrors(error: Error | null, visible: readonly FormField[], faultCount = 0, problems: readonly FaultSettingsProblem[] = []): FormErrors {
  const byFault: Record<string, string> = {};
  for (const problem of problems) byFault[problem.field] ??= problem.message;
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
  const unplaced = problems.find((p) => !FAULT_FIELDS.some((name) => p.field.endsWith(`].${name}`)))?.message;
  return { byField, byFault, general: unplaced ?? (error && !shown ? error.message : undefined) };
}
