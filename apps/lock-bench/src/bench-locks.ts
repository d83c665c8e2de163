/**
 * `npm run bench:locks`: every lock of @oversell/locks and the npm locks people use, under one workload.
 *   --seconds 10  --locks watchdog,redlock  --processes 3  --workers 50  --out bench-results
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runLockBench, type LockBenchOptions } from './lock-bench';
import { isLockName, LOCK_NAMES } from './locks-under-test';

const BENCH_RESULTS_DIR = resolve(__dirname, '..', '..', '..', 'bench-results');

class UsageError extends Error {}

/** A whole number from `min` to `max`, or the option's default when it was not given. */
function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${raw})`);
}

export function parseLockBenchArgs(args: string[]): LockBenchOptions {
  let values: Partial<Record<'seconds' | 'locks' | 'processes' | 'workers' | 'out', string>>;
  try {
    values = parseArgs({ args, strict: true, options: { seconds: { type: 'string' }, locks: { type: 'string' }, processes: { type: 'string' }, workers: { type: 'string' }, out: { type: 'string' } } }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const locks = values.locks ? values.locks.split(',').map((name) => name.trim()) : LOCK_NAMES;
  const unknown = locks.filter((name) => !isLockName(name));
  if (unknown.length) throw new UsageError(`--locks: unknown ${unknown.join(', ')}; valid: ${LOCK_NAMES.join(', ')}`);
  return {
    locks: locks.filter(isLockName),
    seconds: wholeNumber('seconds', values.seconds, 10, 1, 600),
    processes: wholeNumber('processes', values.processes, 3, 1, 16),
    workers: wholeNumber('workers', values.workers, 50, 1, 1000),
    outDir: values.out ?? BENCH_RESULTS_DIR,
    command: `npm run bench:locks${args.length ? ' -- ' + args.join(' ') : ''}`,
  };
}

if (require.main === module) {
  (async () => {
    const { files } = await runLockBench(parseLockBenchArgs(process.argv.slice(2)));
    console.log(`written: ${files.slice(0, 2).join(', ')}`);
  })().catch((error: unknown) => {
    console.error(error instanceof UsageError ? `usage: ${error.message}` : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
