import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Parses --name value options into whole numbers within bounds, naming the option at fault. */
export function intOption(values: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${String(raw)})`);
  return value;
}

export class UsageError extends Error {}

export function parse(args: string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values as Record<string, unknown>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
