import { ORDER_WRITES, STRATEGY_NAMES } from '@oversell/contracts';
import { parseBenchArgs } from './bench';

describe('parseBenchArgs', () => {
  it('benches every registered strategy unless --strategies names some', () => {
    expect(parseBenchArgs([]).strategies).toEqual([...STRATEGY_NAMES]);
    expect(parseBenchArgs(['--strategies', 'watchdog, lua-decrement']).strategies).toEqual(['watchdog', 'lua-decrement']);
    expect(() => parseBenchArgs(['--strategies', 'watchdog,nope'])).toThrow("option '--strategies <list>' argument 'watchdog,nope' is invalid. Unknown nope; valid: no-lock,");
  });

  it('--order-write runs each strategy once per way of writing its orders, sync unless told', () => {
    expect(parseBenchArgs([]).orderWrites).toEqual(['sync']);
    expect(parseBenchArgs(['--order-write', 'sync,queued']).orderWrites).toEqual(['sync', 'queued']);
    expect(parseBenchArgs(['--order-write', 'queued']).orderWrites).toEqual(['queued']);
    expect(() => parseBenchArgs(['--order-write', 'sync,later'])).toThrow(`option '--order-write <list>' argument 'sync,later' is invalid. Unknown later; valid: ${ORDER_WRITES.join(', ')}.`);
  });

  it('refuses an empty list, never taking it for all of them', () => {
    expect(() => parseBenchArgs(['--strategies='])).toThrow("option '--strategies <list>' argument '' is invalid. It is empty");
    expect(() => parseBenchArgs(['--strategies', ' , '])).toThrow("option '--strategies <list>' argument ' , ' is invalid. It is empty");
    expect(() => parseBenchArgs(['--order-write='])).toThrow("option '--order-write <list>' argument '' is invalid. It is empty");
  });

  it.each([
    ['--units', '1e3'],
    ['--units', '0x10'],
    ['--stock', ''],
    ['--duration', '2.5'],
    ['--connections', ' 10'],
  ])('refuses %s %j: decimal digits only', (option, value) => {
    expect(() => parseBenchArgs([option, value])).toThrow(`option '${option} <`);
    expect(() => parseBenchArgs([option, value])).toThrow(`argument '${value}' is invalid. It must be a whole number`);
  });

  it('refuses what cannot be run before starting anything: an unknown scenario, a --url that is no URL, --instances beside --url', () => {
    expect(() => parseBenchArgs(['--scenario', 'nope'])).toThrow("option '--scenario <name>' argument 'nope' is invalid. Allowed choices are ");
    expect(() => parseBenchArgs(['--url', 'nope'])).toThrow("option '--url <base>' argument 'nope' is invalid. It must be an http(s) URL");
    expect(() => parseBenchArgs(['--url', 'ftp://127.0.0.1'])).toThrow("option '--url <base>' argument 'ftp://127.0.0.1' is invalid. It must be an http(s) URL");
    expect(() => parseBenchArgs(['--url', 'http://127.0.0.1:8080', '--instances', '5'])).toThrow('with --url the lab is already running');
    expect(parseBenchArgs(['--url', 'http://127.0.0.1:8080']).url).toBe('http://127.0.0.1:8080');
  });

  it('--units is the stock of the product, for a long sale', () => {
    expect(parseBenchArgs(['--units', '100000']).stock).toBe(100000);
    expect(parseBenchArgs(['--stock', '500']).stock).toBe(500);
    expect(parseBenchArgs([]).stock).toBeUndefined();
  });
});
