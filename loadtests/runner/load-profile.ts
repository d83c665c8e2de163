import { MAX_ORDER_QUANTITY, RUN_LIMITS, type LoadProfile } from '@oversell/contracts';
import { expectKnownKeys, expectObject, InvalidFieldError, readNumber, requireNumber } from './validation';

const LOAD_PROFILE_KEYS: readonly (keyof LoadProfile)[] = [
  'connections',
  'arrivalRate',
  'durationSec',
  'totalRequests',
  'quantity',
];

/**
 * Checks a load profile against RUN_LIMITS. A profile must be bounded by time or by count: an unbounded
 * run against a shared service is never what anyone meant.
 */
export function validateLoadProfile(value: unknown, field = 'load'): LoadProfile {
  const fields = expectObject(value, field);
  expectKnownKeys(fields, LOAD_PROFILE_KEYS, field);
  const connections = requireNumber(fields, 'connections', { min: 1, max: RUN_LIMITS.maxConnections, integer: true }, field);
  const durationSec = readNumber(fields, 'durationSec', { min: 0, max: RUN_LIMITS.maxDurationSec, minInclusive: false }, field);
  const totalRequests = readNumber(fields, 'totalRequests', { min: 1, max: RUN_LIMITS.maxTotalRequests, integer: true }, field);
  const arrivalRate = readNumber(fields, 'arrivalRate', { min: 1, max: RUN_LIMITS.maxArrivalRate, integer: true }, field);
  const quantity = readNumber(fields, 'quantity', { min: 1, max: MAX_ORDER_QUANTITY, integer: true }, field);
  if (durationSec === undefined && totalRequests === undefined) {
    throw new InvalidFieldError(`${field}.durationSec`, 'or totalRequests is required so the run is bounded');
  }
  return { connections, durationSec, totalRequests, arrivalRate, quantity };
}
