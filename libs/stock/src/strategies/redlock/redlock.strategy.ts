import { connectRedlock, REDLOCK_RELEASE } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';

/** The lab's own RedLock around the Redis stock read-check-write, on the five nodes at REDLOCK_NODES. */
export const redlock = lockedRedisStock('redlock', luaScriptsOf(REDLOCK_RELEASE), (deps) => lockOnService('redis-nodes', deps, connectRedlock));
