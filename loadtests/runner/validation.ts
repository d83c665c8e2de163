/**
 * Small field readers for untrusted input (scenario files, CLI flags, IPC messages). Each failure names
 * the field by its dotted path so a user can find it in the file or the command line.
 */
export class InvalidFieldError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly source?: string,
  ) {
    super(`${source ? `${source}: ` : ''}${field} ${problem}`);
    this.name = 'InvalidFieldError';
  }

  /** The same error, told where the input came from (a file, the command line). */
  from(source: string): InvalidFieldError {
    return new InvalidFieldError(this.field, this.problem, source);
  }
}

export type Fields = Record<string, unknown>;

function path(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

export function expectObject(value: unknown, field: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidFieldError(field || '(root)', 'must be a JSON object');
  }
  return value as Fields;
}

/** Typos in optional fields would otherwise be silently ignored and the default used instead. */
export function expectKnownKeys(fields: Fields, allowed: readonly string[], prefix = ''): void {
  const unknown = Object.keys(fields).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw new InvalidFieldError(path(prefix, unknown), `is not a known field (known: ${allowed.join(', ')})`);
  }
}

export interface NumberRule {
  min: number;
  max: number;
  integer?: boolean;
  /** When false, the minimum itself is not allowed (durations and rates must be above zero). */
  minInclusive?: boolean;
}

export function readNumber(fields: Fields, key: string, rule: NumberRule, prefix = ''): number | undefined {
  const value = fields[key];
  if (value === undefined) return undefined;
  const field = path(prefix, key);
  const kind = rule.integer ? 'an integer' : 'a number';
  const lowerOk = rule.minInclusive === false ? (n: number) => n > rule.min : (n: number) => n >= rule.min;
  if (typeof value !== 'number' || !Number.isFinite(value) || (rule.integer && !Number.isInteger(value))) {
    throw new InvalidFieldError(field, `must be ${kind} (got ${JSON.stringify(value)})`);
  }
  if (!lowerOk(value) || value > rule.max) {
    const lower = rule.minInclusive === false ? `above ${rule.min}` : `at least ${rule.min}`;
    throw new InvalidFieldError(field, `must be ${kind} ${lower} and at most ${rule.max} (got ${value})`);
  }
  return value;
}

export function requireNumber(fields: Fields, key: string, rule: NumberRule, prefix = ''): number {
  const value = readNumber(fields, key, rule, prefix);
  if (value === undefined) throw new InvalidFieldError(path(prefix, key), 'is required');
  return value;
}

export function requireString(fields: Fields, key: string, prefix = ''): string {
  const value = fields[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidFieldError(path(prefix, key), 'must be a non-empty string');
  }
  return value;
}
