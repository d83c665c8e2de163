import type Redis from 'ioredis';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

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

/**
 * Reads the script when the module that declares it is imported, so a missing .lua file (an asset that
 * did not reach dist/) stops the service at start-up instead of failing the first order.
 */
export function loadLuaScript(dir: string, fileName: string): LuaScript {
  const match = FILE_NAME.exec(fileName);
  if (!match) throw new Error(`Lua script name "${fileName}" must look like <name>-<numberOfKeys>.lua`);
  const path = join(dir, fileName);
  let lua: string;
  try {
    lua = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new Error(`Lua script ${path} is missing; were the .lua assets copied into the build?`, { cause });
  }
  const camel = match[1].replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return { command: `${camel}V${SCRIPT_VERSION}`, numberOfKeys: Number(match[2]), lua, fileName: basename(path) };
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
