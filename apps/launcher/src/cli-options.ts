import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * Parses a --name value option into a whole number within bounds, naming the option at fault: decimal
 * digits only (Number() would also take '', '1e3' and '0x10'). An environment variable standing for
 * the option (`env`) is read and checked the same way when the option is not given.
 */
export function intOption(values: Record<string, unknown>, name: string, fallback: number, min: number, max: number, env?: string): number {
  const given = values[name] !== undefined;
  const raw = given ? values[name] : env === undefined ? undefined : process.env[env];
  if (raw === undefined) return fallback;
  const value = /^-?\d+$/.test(String(raw)) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${given ? `--${name}` : env} must be a whole number from ${min} to ${max} (got ${String(raw) === '' ? 'nothing' : String(raw)})`);
  }
  return value;
}

/** A comma-separated --name list: undefined when not given, an error when given empty (it never means "all"). */
export function listOption(values: Record<string, unknown>, name: string): string[] | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => String(value).split(',')).map((item) => item.trim()).filter(Boolean);
  if (!items.length) throw new UsageError(`--${name} is empty: name at least one, or leave the option out for all of them`);
  return items;
}

/** A --name http(s) URL, checked before anything starts. */
export function urlOption(values: Record<string, unknown>, name: string): string | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL such as http://127.0.0.1:8080 (got ${JSON.stringify(String(raw))})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${name} must be an http(s) URL (got ${JSON.stringify(String(raw))})`);
  return String(raw);
}

export class UsageError extends Error {}

export function parse(args: string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values as Record<string, unknown>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
