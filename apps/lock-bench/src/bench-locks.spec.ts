import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { UsageError } from '@oversell/cli';
import { lockBenchCommand, parseLockBenchArgs } from './bench-locks';
import { LOCK_NAMES } from './locks-under-test';

describe('bench:locks command line', () => {
  it('takes the defaults: every lock, 10 s, 3 passes, 3 processes × 50 workers', () => {
    expect(parseLockBenchArgs(['--passes', '5']).passes).toBe(5);
    expect(parseLockBenchArgs([])).toMatchObject({ locks: LOCK_NAMES, seconds: 10, passes: 3, processes: 3, workers: 50, autoPipelining: false, command: 'npm run bench:locks' });
    expect(parseLockBenchArgs(['--auto-pipelining']).autoPipelining).toBe(true);
    expect(parseLockBenchArgs(['--locks', 'watchdog, redlock', '--seconds', '2'])).toMatchObject({ locks: ['watchdog', 'redlock'], seconds: 2 });
  });

  it('--help lists every option with what it takes and its default', () => {
    const help = lockBenchCommand().helpInformation().replace(/\s+/g, ' ');
    for (const line of [
      'Usage: bench:locks [options] Every lock of @oversell/locks',
      '--seconds <n> seconds each lock is measured: whole number from 1 to 600 (default: 10)',
      "--passes <n> times every lock is measured, each pass in another order; the table shows each lock's median pass: whole number from 1 to 9 (default: 3)",
      `--locks <list> the locks to measure: comma list of ${LOCK_NAMES.join(', ')} (default: all of them)`,
      '--processes <n> OS processes contending: whole number from 1 to 16 (default: 3)',
      '--workers <n> workers in each process: whole number from 1 to 1000 (default: 50)',
      "--auto-pipelining ioredis's enableAutoPipelining on every process's Redis connection",
      '--out <dir> folder the report is written to (default: bench-results/)',
    ]) expect(help).toContain(line);
  });

  it.each([
    [['--passes', '0'], "option '--passes <n>' argument '0' is invalid. It must be a whole number from 1 to 9."],
    [['--workers', '1e3'], "option '--workers <n>' argument '1e3' is invalid. It must be a whole number from 1 to 1000."],
    [['--locks', 'watchdog,nope'], "option '--locks <list>' argument 'watchdog,nope' is invalid. Unknown nope; valid: "],
    [['--locks', ','], "option '--locks <list>' argument ',' is invalid. It is empty: name at least one"],
  ])('refuses %j, naming the option and what it takes', (args, message) => {
    expect(() => parseLockBenchArgs(args)).toThrow(UsageError);
    expect(() => parseLockBenchArgs(args)).toThrow(message);
  });

  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [join(__dirname, '..', 'dist', 'bench-locks.js'), ...args], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
    });

  it('the built command answers --help with exit 0, and a bad value with one line and exit 2 before measuring anything', async () => {
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: bench:locks \[options\]/);
    expect(await run(['--seconds', '601'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "usage: option '--seconds <n>' argument '601' is invalid. It must be a whole number from 1 to 600. (--help lists the options)\n",
    });
  });
});
