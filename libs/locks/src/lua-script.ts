import type Redis from 'ioredis';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** A Lua script read from its own file, named the BullMQ way: `<name>-<numberOfKeys>.lua`. */
export interface LuaScript {
  /** ioredis command name: the file's name in camelCase plus the version of its calling convention (KEYS/ARGV/reply). */
  command: string;
  numberOfKeys: number;
  lua: string;
  fileName: string;
}

/** Bumped when a script's KEYS, ARGV or reply change, so callers and scripts of different shapes never meet. */
const SCRIPT_VERSION = 1;
const FILE_NAME = /^([a-z][a-z0-9-]*)-(\d+)\.lua$/;
/** BullMQ's include directive, a line of its own: `--- @include "<path>"`, relative to the file it is in, `.lua` optional. */
const INCLUDE = /^---[ \t]*@include[ \t]+"([^"]+)"[ \t]*$/gm;

/**
 * Reads the script when the module that declares it is imported, so a missing .lua file (an asset that
 * did not reach dist/), its own or one it includes, stops the service at start-up instead of failing
 * the first order. Shared Lua is included, not copied, as BullMQ does it: each `--- @include` line is
 * replaced by the file it names (its own includes resolved too), and a file a script includes twice
 * appears in it once.
 */
export function loadLuaScript(dir: string, fileName: string): LuaScript {
  const match = FILE_NAME.exec(fileName);
  if (!match) throw new Error(`Lua script name "${fileName}" must look like <name>-<numberOfKeys>.lua`);
  const path = join(dir, fileName);
  const lua = withIncludes(path, readLua(path), new Set([resolve(path)]));
  const camel = match[1].replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return { command: `${camel}V${SCRIPT_VERSION}`, numberOfKeys: Number(match[2]), lua, fileName: basename(path) };
}

function readLua(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new Error(`Lua script ${path} is missing; were the .lua assets copied into the build?`, { cause });
  }
}

/** `seen`: the files already in the script. Each goes in once, so files that include each other still end. */
function withIncludes(path: string, lua: string, seen: Set<string>): string {
  return lua.replace(INCLUDE, (_line, target: string) => {
    const included = resolve(dirname(path), target.endsWith('.lua') ? target : `${target}.lua`);
    if (seen.has(included)) return '';
    seen.add(included);
    return withIncludes(included, readLua(included), seen).trimEnd();
  });
}

/**
 * Defines the scripts on a client as commands (EVALSHA, falling back to EVAL once per connection),
 * unless that client has them already: every lock defines its own scripts, so a lock works on any
 * client it is handed, and a client shared by several locks gets each script once.
 */
export function useScripts<C extends Pick<Redis, 'defineCommand'>>(redis: C, scripts: readonly LuaScript[]): C {
  for (const script of scripts) {
    if (typeof (redis as unknown as Record<string, unknown>)[script.command] === 'function') continue;
    redis.defineCommand(script.command, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  }
  return redis;
}
