import { RELEASE_LOCK, uuidLuaLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';

/** The owner-token lock (SET NX PX, Lua compare-and-delete) around the Redis stock read-check-write. */
export const uuidLua = lockedRedisStock('uuid-lua', luaScriptsOf(RELEASE_LOCK), (deps) => uuidLuaLock(deps.lockRedis));
