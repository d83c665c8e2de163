import { parseBenchArgs } from './bench';
import { scalingTable } from '../reports/bench-scaling-report';
import { isScalingRun, parseScalingArgs } from './bench-scaling';
import { UsageError } from '@oversell/cli';
import { benchReportFixture, benchRowFixture, phaseFixture, tableCells as cells } from '../testing/bench-fixtures';

const parse = (args: string[]) => parseScalingArgs(args, parseBenchArgs);

describe('isScalingRun', () => {
  it('refuses a list of instance counts beside --url: that lab has the instances it has', () => {
    expect(() => parseScalingArgs(['--instances', '1,2', '--url', 'http://127.0.0.1:8080'], parseBenchArgs)).toThrow('a lab at --url has the instances it has');
  });

  it('is a scaling run when --instances names more than one count, either spelling', () => {
    expect(isScalingRun(['--instances', '1,2,3,4'])).toBe(true);
    expect(isScalingRun(['--duration', '5', '--instances=1,2'])).toBe(true);
    expect(isScalingRun(['--instances', '3'])).toBe(false);
    expect(isScalingRun(['--strategies', 'watchdog,lua-decrement'])).toBe(false);
  });
});

describe('parseScalingArgs', () => {
  it('runs lua-decrement, watchdog and db-conditional at each count given, in order, with the bench options', () => {
    const options = parse(['--instances', '1,2,3,4', '--duration', '5', '--units', '100000']);
    expect(options).toMatchObject({
      instanceCounts: [1, 2, 3, 4],
      strategies: ['lua-decrement', 'watchdog', 'db-conditional'],
      durationSec: 5,
      stock: 100000,
      scenario: 'compare',
      command: 'npm run bench -- --instances 1,2,3,4 --duration 5 --units 100000',
    });
  });

  it('runs the strategies named instead of its defaults', () => {
    expect(parse(['--instances=2,1', '--strategies', 'segmented']).strategies).toEqual(['segmented']);
    expect(parse(['--instances=2,1', '--strategies', 'segmented']).instanceCounts).toEqual([2, 1]);
  });

  it('refuses a count that is not a whole number from 1 to 16, or a count named twice', () => {
    expect(() => parse(['--instances', '1,0'])).toThrow("option '--instances <n>' argument '1,0' is invalid. It must be a comma list of distinct whole numbers from 1 to 16.");
    expect(() => parse(['--instances', '1,x'])).toThrow(UsageError);
    expect(() => parse(['--instances', '2,17'])).toThrow(UsageError);
    expect(() => parse(['--instances', '2,2'])).toThrow("option '--instances <n>' argument '2,2' is invalid. It names a number twice.");
  });

  it('refuses what the bench refuses: an unknown strategy, an unknown option, --units beside --stock', () => {
    expect(() => parse(['--instances', '1,2', '--strategies', 'nope'])).toThrow("option '--strategies <list>' argument 'nope' is invalid. Unknown nope; valid: ");
    expect(() => parse(['--instances', '1,2', '--bogus', '1'])).toThrow(UsageError);
    expect(() => parse(['--instances', '1,2', '--units', '10', '--stock', '10'])).toThrow('--units is another name for --stock: give one of them');
    expect(() => parse(['--instances', '1,2', '--units', '1.5'])).toThrow("option '--units <n>' argument '1.5' is invalid. It must be a whole number from 0 to 1000000.");
  });
});

describe('scalingTable', () => {
  it('prints per instance count the ceiling, each strategy’s req/s and its contended-phase units/s', () => {
    const at1 = benchReportFixture(
      [
        benchRowFixture('lua-decrement', { throughput: 1200.4, p99: 10, contendedPhase: phaseFixture(800, 5) }),
        benchRowFixture('db-conditional', { throughput: 300, p99: 40, contendedPhase: phaseFixture(90, 30, false) }),
      ],
      benchRowFixture('noop', { throughput: 2100, p99: 5, contendedPhase: null }),
      1,
    );
    const at2 = benchReportFixture(
      [
        benchRowFixture('lua-decrement', { throughput: 1900, p99: 10, contendedPhase: phaseFixture(1300, 5) }),
        { ...benchRowFixture('db-conditional', { throughput: 0, p99: 0, contendedPhase: null }), status: 'failed', failure: 'timed out' },
      ],
      null,
      2,
    );
    const markdown = scalingTable({ command: 'npm run bench -- --instances 1,2', startedAt: '', finishedAt: '', runs: [at1, at2] });

    expect(markdown).toContain('Scenario `compare`: stock 1000, 500 connections, 8 s per run; each instance count on a lab of its own; 2 cores');
    expect(cells(markdown, 'no-op ceiling')).toEqual({ strategy: 'no-op ceiling', '1 inst. req/s': '2100', '1 inst. units/s in phase': '–', '2 inst. req/s': '–', '2 inst. units/s in phase': '–' });
    expect(cells(markdown, 'lua-decrement')).toEqual({ strategy: 'lua-decrement', '1 inst. req/s': '1200', '1 inst. units/s in phase': '800', '2 inst. req/s': '1900', '2 inst. units/s in phase': '1300' });
    expect(cells(markdown, 'db-conditional')).toEqual({
      strategy: 'db-conditional',
      '1 inst. req/s': '300',
      '1 inst. units/s in phase': '90 (never sold out)',
      '2 inst. req/s': 'failed',
      '2 inst. units/s in phase': '–',
    });
  });
});
