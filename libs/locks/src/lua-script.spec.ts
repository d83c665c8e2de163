import { loadLuaScript } from './lua-script';
import { RELEASE_LOCK } from './uuid-lua/uuid-lua.lock';
import { WATCHDOG_SCRIPTS } from './watchdog/watchdog-lock';

describe('loadLuaScript', () => {
  const scripts = [RELEASE_LOCK, ...WATCHDOG_SCRIPTS];

  it('derives each command name and key count from the file name, matching the typed commands', () => {
    expect(scripts.map((s) => `${s.command}/${s.numberOfKeys}`)).toEqual(['releaseLockV1/1', 'watchdogAcquireV1/3', 'watchdogRenewV1/1', 'watchdogReleaseV1/2', 'watchdogPassV1/1', 'watchdogLeaveQueueV1/4']);
  });

  it('declares as many KEYS in each header as the file name says', () => {
    for (const script of scripts) {
      const declared = new Set(script.lua.match(/KEYS\[\d+\]/g));
      expect(declared.size).toBe(script.numberOfKeys);
    }
  });

  it('refuses a file named against the convention, and names a missing file', () => {
    expect(() => loadLuaScript(__dirname, 'release.lua')).toThrow('<name>-<numberOfKeys>.lua');
    expect(() => loadLuaScript(__dirname, 'no-such-script-1.lua')).toThrow('is missing');
  });
});
