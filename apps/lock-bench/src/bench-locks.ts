/**
 * `npm run bench:locks`: every lock of @oversell/locks and the npm locks people use, under one workload.
 *   --seconds 10  --locks watchdog,redlock  --processes 3  --workers 50  --out bench-results
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { resolve } from 'node:path';
import { runLockBench, type LockBenchOptions } from './lock-bench';
import { isLockName, LOCK_NAMES } from './locks-under-test';

const BENCH_RESULTS_DIR = resolve(__dirname, '..', '..', '..', 'bench-results');

// The lab's shared value rules are in @oversell/loadtests, which the lock bench may not import (it
// measures the lock library and depends on nothing else of ours): its two rules are here.
function wholeNumber(min: number, max: number): [string, (raw: string) => number] {
  const takes = `whole number from ${min} to ${max}`;
  const parse = (raw: string) => {
    if (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max) return Number(raw);
    throw new InvalidArgumentError(`It must be a ${takes}.`);
  };
  return [takes, parse];
}

function lockList(raw: string): string[] {
  const locks = raw.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = locks.filter((name) => !isLockName(name));
  if (!locks.length || unknown.length) throw new InvalidArgumentError(`${locks.length ? `Unknown ${unknown.join(', ')}` : 'It is empty'}; valid: ${LOCK_NAMES.join(', ')}.`);
  return locks;
}

function numberOption(flags: string, description: string, min: number, max: number, fallback: number): Option {
  const [takes, parse] = wholeNumber(min, max);
  return new Option(flags, `${description}: ${takes}`).argParser(parse).default(fallback);
}

/** The lock bench's options; a fresh command per parse (commander keeps the values it parsed). */
export function lockBenchCommand(): Command {
  return new Command('bench:locks')
    .description('Every lock of @oversell/locks and the npm locks people use, under one workload: OS processes × workers looping acquire → GET → SET → release on one Redis key.')
    .helpOption('-h, --help', 'show this help and exit')
    .addOption(numberOption('--seconds <n>', 'seconds each lock is measured', 1, 600, 10))
    .addOption(new Option('--locks <list>', `the locks to measure: comma list of ${LOCK_NAMES.join(', ')} (default: all of them)`).argParser(lockList))
    .addOption(numberOption('--processes <n>', 'OS processes contending', 1, 16, 3))
    .addOption(numberOption('--workers <n>', 'workers in each process', 1, 1000, 50))
    .addOption(new Option('--out <dir>', 'folder the report is written to').default(BENCH_RESULTS_DIR, 'bench-results/'));
}

/** The options, or a CommanderError (exit code 0 after the help, 1 for a bad command line) that names the option. */
export function parseLockBenchArgs(args: string[]): LockBenchOptions {
  const values = lockBenchCommand().exitOverride().configureOutput({ outputError: () => undefined }).parse(args, { from: 'user' }).opts();
  return {
    locks: ((values.locks as string[] | undefined) ?? LOCK_NAMES).filter(isLockName),
    seconds: values.seconds as number,
    processes: values.processes as number,
    workers: values.workers as number,
    outDir: values.out as string,
    command: `npm run bench:locks${args.length ? ' -- ' + args.join(' ') : ''}`,
  };
}

if (require.main === module) {
  (async () => {
    const { files } = await runLockBench(parseLockBenchArgs(process.argv.slice(2)));
    console.log(`written: ${files.slice(0, 2).join(', ')}`);
  })().catch((error: unknown) => {
    if (!(error instanceof CommanderError)) {
      console.error(error);
      process.exit(1);
    }
    // A bad command line exits 2, as the lab's other commands do (commander's own code is 1); the help 0.
    if (error.exitCode !== 0) console.error(`usage: ${error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (--help lists the options)`);
    process.exit(error.exitCode === 0 ? 0 : 2);
  });
}
