import { STRATEGY_NAMES } from '@oversell/contracts';
import { parseBenchArgs } from './bench';

describe('parseBenchArgs', () => {
  it('benches every registered strategy unless --strategies names some', () => {
    expect(parseBenchArgs([]).strategies).toEqual([...STRATEGY_NAMES]);
    expect(parseBenchArgs(['--strategies', 'watchdog, lua-decrement']).strategies).toEqual(['watchdog', 'lua-decrement']);
    expect(() => parseBenchArgs(['--strategies', 'watchdog,nope'])).toThrow('--strategies: unknown nope');
  });

  it('--units is the stock of the product, for a long sale', () => {
    expect(parseBenchArgs(['--units', '100000']).stock).toBe(100000);
    expect(parseBenchArgs(['--stock', '500']).stock).toBe(500);
    expect(parseBenchArgs([]).stock).toBeUndefined();
  });
});
