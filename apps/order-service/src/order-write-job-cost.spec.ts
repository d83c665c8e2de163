import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { UsageError } from '@oversell/cli';
import { jobCostCommand, parseJobCostArgs } from './order-write-job-cost';

describe('order-write-job-cost command line', () => {
  it('measures 20000 jobs from 500 callers unless told', () => {
    expect(parseJobCostArgs([])).toEqual({ jobs: 20_000, connections: 500 });
    expect(parseJobCostArgs(['--jobs', '300', '--connections', '30'])).toEqual({ jobs: 300, connections: 30 });
  });

  it('--help lists each option with what it takes and its default', () => {
    const help = jobCostCommand().helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--jobs <n> jobs added, then taken and finished: whole number from 1 (default: 20000)');
    expect(help).toContain('--connections <n> concurrent callers adding them: whole number from 1 (default: 500)');
  });

  it.each([
    [['--jobs', '0'], "option '--jobs <n>' argument '0' is invalid. It must be a whole number from 1."],
    [['--connections', '2.5'], "option '--connections <n>' argument '2.5' is invalid. It must be a whole number from 1."],
  ])('refuses %j, naming the option', (args, message) => {
    expect(() => parseJobCostArgs(args)).toThrow(new UsageError(message));
  });

  it('the built command exits 2 with one line on stderr for a bad value, having measured nothing', async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [join(__dirname, '..', 'dist', 'order-write-job-cost.js'), '--jobs', 'many'], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
    });
    expect(result).toEqual({ code: 2, stdout: '', stderr: "usage: option '--jobs <n>' argument 'many' is invalid. It must be a whole number from 1. (--help lists the options)\n" });
  });
});
