import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLuaScript } from './lua-script';
import { RELEASE_LOCK } from './uuid-lua/uuid-lua.lock';
import { WATCHDOG_SCRIPTS } from './watchdog/watchdog-lock';

describe('loadLuaScript', () => {
  const scripts = [RELEASE_LOCK, ...WATCHDOG_SCRIPTS];

  it('derives each command name and key count from the file name, matching the typed commands', () => {
    expect(scripts.map((s) => `${s.command}/${s.numberOfKeys}`)).toEqual(['releaseLockV1/1', 'watchdogAcquireV1/3', 'watchdogRenewV1/1', 'watchdogReleaseV1/4', 'watchdogPassV1/1', 'watchdogLeaveQueueV1/4']);
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

  describe('with shared Lua included (`--- @include`, as BullMQ does)', () => {
    let dir: string;
    const write = (path: string, lua: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), lua);
    };

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'lua-include-'));
    });

    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('puts each included file in place of its line, once, its own includes resolved too', () => {
      write('includes/inner.lua', 'local function inner() return 1 end\n');
      write('includes/outer.lua', '--- @include "inner"\nlocal function outer() return inner() end\n');
      write('both-1.lua', '-- header\n--- @include "includes/outer"\n--- @include "includes/inner.lua"\nreturn outer()\n');
      expect(loadLuaScript(dir, 'both-1.lua').lua).toBe('-- header\nlocal function inner() return 1 end\nlocal function outer() return inner() end\n\nreturn outer()\n');
    });

    it('names a missing include when the script is loaded', () => {
      write('lost-1.lua', '--- @include "includes/gone"\nreturn 1\n');
      expect(() => loadLuaScript(dir, 'lost-1.lua')).toThrow(`${join(dir, 'includes', 'gone.lua')} is missing`);
    });

    it('builds the watchdog release and pass scripts with their shared leave step in each, once, and no directive left', () => {
      for (const script of WATCHDOG_SCRIPTS.filter((s) => ['watchdogReleaseV1', 'watchdogPassV1'].includes(s.command))) {
        expect(script.lua.match(/local function leaveOnce\(/g)).toHaveLength(1);
        expect(script.lua).not.toContain('@include');
      }
    });
  });
});
