import type { StrategyScript } from '@oversell/contracts';
import type { LuaScript } from '@oversell/locks';
import type { SqlFile } from '../persistence/sql-file';

/** Lua scripts as the Explain view shows them. */
export function luaScriptsOf(...scripts: readonly LuaScript[]): StrategyScript[] {
  return scripts.map((script) => ({ name: script.fileName, language: 'lua', source: script.lua }));
}

/** SQL statements as the Explain view shows them. */
export function sqlScriptsOf(...files: readonly SqlFile[]): StrategyScript[] {
  return files.map((file) => ({ name: file.fileName, language: 'sql', source: file.sql }));
}
