import type { BenchRow } from '@oversell/contracts';
import { UsageError } from '@oversell/cli';
import { benchReportFixture, benchRowFixture, tableCells as cells } from '../testing/bench-fixtures';
import { parseBenchArgs, parseScalingRun } from './bench';
import { runTraceSides, traceTable, TRACE_SETTINGS } from './bench-trace';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A row whose instances spent `us` µs of CPU per request answered. */
const row = (strategy: BenchRow['strategy'], us: number): BenchRow => ({
  ...benchRowFixture(strategy, { throughput: 1000, p99: 10, contendedPhase: null }),
  cpu: { perRequestUs: { instance: us, redis: 100 }, perUnitUs: { instance: us * 10 } },
});
const bench = (watchdog: number, noop: number) => benchReportFixture([row('watchdog', watchdog)], row('noop', noop));

describe('--trace', () => {
  it('names the windows to bench, in order, a window again if named again; none unless given', () => {
    expect(parseBenchArgs([]).traces).toBeUndefined();
    expect(parseBenchArgs(['--trace', 'off,all,off,all']).traces).toEqual(['off', 'all', 'off', 'all']);
    expect(() => parseBenchArgs(['--trace', 'off,half'])).toThrow("option '--trace <list>' argument 'off,half' is invalid. Unknown half; valid: on, all, off.");
  });

  it('refuses a lab at --url, whose instances have their window, and a scaling run', () => {
    expect(() => parseBenchArgs(['--trace', 'on,off', '--url', 'http://127.0.0.1:8080'])).toThrow('--trace starts a lab for each window');
    expect(() => parseScalingRun(['--instances', '1,2', '--trace=on,off'])).toThrow(UsageError);
    expect(parseScalingRun(['--instances', '1,2']).instanceCounts).toEqual([1, 2]);
  });

  it('benches once per window, each lab started with its TRACED_ORDERS, and prints them side by side', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'bench-trace-'));
    const asked: (string | undefined)[] = [];
    const lines: string[] = [];
    const figures = [bench(330, 100), bench(300, 101), bench(340, 99), bench(310, 100)];
    const { report, files } = await runTraceSides({ ...parseBenchArgs(['--strategies', 'watchdog']), outDir }, ['all', 'off', 'all', 'off'], async (options) => {
      asked.push(options.env?.TRACED_ORDERS);
      return { report: figures[asked.length - 1] };
    }, (line) => lines.push(line));
    expect(asked).toEqual([TRACE_SETTINGS.all, '0', TRACE_SETTINGS.all, '0']);
    expect(report.runs.map((run) => run.trace)).toEqual(['all', 'off', 'all', 'off']);
    expect(files).toHaveLength(2);
    expect(lines.join('\n')).toContain('| watchdog | 330 | 300 | 340 | 310 | 1.098 |');
  });
});

describe('traceTable', () => {
  it("shows each bench's instance CPU per request in the order run, and each window's median against off's", () => {
    const markdown = traceTable({ command: 'npm run bench -- --trace on,off,all', startedAt: '', finishedAt: '', runs: [
      { trace: 'on', report: bench(310, 100) },
      { trace: 'off', report: bench(300, 102) },
      { trace: 'all', report: { ...bench(0, 98), rows: [{ ...row('watchdog', 0), status: 'failed', failure: 'timed out' }] } },
    ] });
    expect(markdown).toContain('each window on a lab of its own (TRACED_ORDERS on = 512, off = 0, all = 100000)');
    expect(cells(markdown, 'no-op ceiling')).toEqual({ strategy: 'no-op ceiling', '1: trace on, µs/request': '100', '2: trace off, µs/request': '102', '3: trace all, µs/request': '98', 'on ÷ off': '0.980', 'all ÷ off': '0.961' });
    // A failed run has no figure to compare.
    expect(cells(markdown, 'watchdog')).toEqual({ strategy: 'watchdog', '1: trace on, µs/request': '310', '2: trace off, µs/request': '300', '3: trace all, µs/request': '–', 'on ÷ off': '1.033', 'all ÷ off': '–' });
  });

  it('has no ratio without an off bench to compare with', () => {
    const markdown = traceTable({ command: '', startedAt: '', finishedAt: '', runs: [{ trace: 'on', report: bench(310, 100) }] });
    expect(cells(markdown, 'watchdog')).toEqual({ strategy: 'watchdog', '1: trace on, µs/request': '310' });
  });
});
