import { UsageError } from '@oversell/cli';
import { metricValue, parseSoakArgs } from './soak';

describe('parseSoakArgs', () => {
  it('soaks 10 minutes at 500 clients over 100k units on 3 instances, every safe strategy, by default', () => {
    const options = parseSoakArgs([]);
    expect(options).toMatchObject({ minutes: 10, connections: 500, stock: 100_000, instances: 3, warmupSeconds: 3, command: 'npm run soak' });
    expect(options.strategies).toBeUndefined();
  });

  it('takes --minutes and the rest, and says them in its command', () => {
    const args = ['--minutes', '1', '--connections', '50', '--stock', '2000', '--instances', '2', '--warmup-seconds', '0', '--strategies', 'lua-decrement, uuid-lua'];
    expect(parseSoakArgs(args)).toMatchObject({ minutes: 1, connections: 50, stock: 2000, instances: 2, warmupSeconds: 0, strategies: ['lua-decrement', 'uuid-lua'], command: `npm run soak -- ${args.join(' ')}` });
  });

  it.each([
    [['--minutes', '0'], "option '--minutes <n>' argument '0' is invalid. It must be a whole number from 1 to 600."],
    [['--minutes', '1.5'], "option '--minutes <n>' argument '1.5' is invalid. It must be a whole number from 1 to 600."],
    [['--connections', '2001'], "option '--connections <n>' argument '2001' is invalid. It must be a whole number from 1 to 2000."],
    [['--warmup-seconds', '61'], "option '--warmup-seconds <n>' argument '61' is invalid. It must be a whole number from 0 to 60."],
    [['--strategies', 'lua-decrement,no-such'], "option '--strategies <list>' argument 'lua-decrement,no-such' is invalid. Unknown no-such; valid: "],
  ])('refuses %j, naming the option', (args, message) => {
    expect(() => parseSoakArgs(args)).toThrow(UsageError);
    expect(() => parseSoakArgs(args)).toThrow(message);
  });

  it('refuses --url: the RSS is read off the instances of its own lab', () => {
    expect(() => parseSoakArgs(['--url', 'http://127.0.0.1:8080'])).toThrow(UsageError);
  });
});

describe('metricValue', () => {
  it('reads an unlabelled metric from the Prometheus text format, not its HELP line or a longer name', () => {
    const text = ['# HELP oversell_process_resident_memory_bytes Resident memory size in bytes.', 'oversell_process_resident_memory_bytes_total 1', 'oversell_process_resident_memory_bytes 123456789', ''].join('\n');
    expect(metricValue(text, 'oversell_process_resident_memory_bytes')).toBe(123456789);
    expect(metricValue(text, 'oversell_nodejs_eventloop_lag_p99_seconds')).toBeNull();
  });
});
