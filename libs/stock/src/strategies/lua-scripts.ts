import type { Result } from 'ioredis';
import { join } from 'node:path';
import { loadLuaScript } from '../redis/lua-script';

/** Every Lua script of every strategy, read from the strategy's own folder and defined once on the client. */
export const LUA_SCRIPTS = {
  releaseLock: loadLuaScript(join(__dirname, 'uuid-lua'), 'release-lock-1.lua'),
  watchdogAcquire: loadLuaScript(join(__dirname, 'watchdog'), 'watchdog-acquire-1.lua'),
  watchdogRelease: loadLuaScript(join(__dirname, 'watchdog'), 'watchdog-release-2.lua'),
  watchdogRenew: loadLuaScript(join(__dirname, 'watchdog'), 'watchdog-renew-1.lua'),
  decrementStock: loadLuaScript(join(__dirname, 'lua-decrement'), 'decrement-stock-1.lua'),
};

// The commands defineCommand adds, typed (names are the file names in camelCase + version; a spec checks they agree).
declare module 'ioredis' {
  interface RedisCommander<Context> {
    releaseLockV1(lockKey: string, token: string): Result<number, Context>;
    watchdogAcquireV1(lockKey: string, leaseMs: number, owner: string): Result<number | null, Context>;
    watchdogReleaseV1(lockKey: string, channel: string, leaseMs: number, owner: string): Result<number, Context>;
    watchdogRenewV1(lockKey: string, leaseMs: number, owner: string): Result<number, Context>;
    decrementStockV1(stockKey: string, units: number): Result<number, Context>;
  }
}
