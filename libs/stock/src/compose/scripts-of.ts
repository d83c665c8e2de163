import type { StrategyScript } from '@oversell/contracts';
import type { LuaScript } from '@oversell/locks';

/** Lua scripts as the Explain view shows them. */
export function luaScriptsOf(...scripts: readonly LuaScript[]): StrategyScript[] {
  return scripts.map((script) => ({ name: script.fileName, language: 'lua', source: script.lua }));
}
