import { LUA_SCRIPTS } from './lua-scripts';

describe('LUA_SCRIPTS', () => {
  it('derives each command name and key count from the file name, matching the typed commands', () => {
    expect(Object.fromEntries(Object.entries(LUA_SCRIPTS).map(([k, s]) => [k, `${s.command}/${s.numberOfKeys}`]))).toEqual({
      releaseLock: 'releaseLockV1/1',
      watchdogAcquire: 'watchdogAcquireV1/1',
      watchdogRelease: 'watchdogReleaseV1/2',
      watchdogRenew: 'watchdogRenewV1/1',
      decrementStock: 'decrementStockV1/1',
    });
  });

  it('declares as many KEYS in each header as the file name says', () => {
    for (const script of Object.values(LUA_SCRIPTS)) {
      const declared = new Set(script.lua.match(/KEYS\[\d+\]/g));
      expect(declared.size).toBe(script.numberOfKeys);
    }
  });
});
