import { STRATEGY_NAMES } from '@oversell/contracts';
import { parseBenchArgs } from './bench';

describe('parseBenchArgs', () => {
  it('benches every registered strategy unless --strategies names some', () => {
    expect(parseBenchArgs([]).strategies).toEqual([...STRATEGY_NAMES]);
    expect(parseBenchArgs(['--strategies', 'watchdog, lua-decrement']).strategies).toEqual(['watchdog', 'lua-decrement']);
    expect(() => parseBenchArgs(['--strategies', 'watchdog,nope'])).toThrow('--strategies: unknown nope');
  });

  it('--order-write runs each strategy once per way of writing its orders, sync unless told', () => {
    expect(parseBenchArgs([]).orderWrites).toEqual(['sync']);
    expect(parseBenchArgs(['--order-write', 'sync,queued']).orderWrites).toEqual(['sync', 'queued']);
    expect(parseBenchArgs(['--order-write', 'queued']).orderWrites).toEqual(['queued']);
    expect(() => parseBenchArgs(['--order-write', 'sync,later'])).toThrow('--order-write: unknown later; valid: sync, queued');
  });

  it('--units is the stock of the product, for a long sale', () => {
    expect(parseBenchArgs(['--units', '100000']).stock).toBe(100000);
    expect(parseBenchArgs(['--stock', '500']).stock).toBe(500);
    expect(parseBenchArgs([]).stock).toBeUndefined();
  });
});
