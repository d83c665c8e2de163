import { ApiError } from '../api/client';
import type { RunFormValues } from './run-form';

export type FormField = Exclude<keyof RunFormValues, 'bound' | 'scenario'>;

/** The request field(s) each form field becomes; load settings are nested under `load`. */
const REQUEST_FIELDS: Record<FormField, string[]> = {
  strategy: ['strategy'],
  initialStock: ['initialStock'],
  lockTtlMs: ['lockTtlMs'],
  businessDelayMs: ['businessDelayMs'],
  segments: ['segments'],
  connections: ['load.connections', 'connections'],
  durationSec: ['load.durationSec', 'durationSec'],
  totalRequests: ['load.totalRequests', 'totalRequests'],
  arrivalRate: ['load.arrivalRate', 'arrivalRate'],
};

export interface FormErrors {
  byField: Partial<Record<FormField, string>>;
  /** The message when it belongs to no visible field (or the request failed for another reason). */
  general?: string;
}

/** Spreads a failed submission over the form: each field's message next to it, the rest on top. */
export function formErrors(error: Error | null, visible: readonly FormField[]): FormErrors {
  if (!error) return { byField: {} };
  if (!(error instanceof ApiError)) return { byField: {}, general: error.message };
  const byField: FormErrors['byField'] = {};
  for (const field of visible) {
    const message = REQUEST_FIELDS[field].map((name) => error.messageFor(name)).find(Boolean);
    if (message) byField[field] = message;
  }
  return { byField, general: Object.keys(byField).length === 0 ? error.message : undefined };
}
