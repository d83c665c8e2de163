import { REDLOCK_RELEASE, redlock as redlockLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { redisNodesLock } from '../../compose/redis-nodes-lock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';

/** The lab's own RedLock around the Redis stock read-check-write, on the five nodes at REDLOCK_NODES. */
export const redlock = lockedRedisStock('redlock', luaScriptsOf(REDLOCK_RELEASE), (deps) => lockOnService('redis-nodes', deps, (addresses) => redisNodesLock(addresses, redlockLock)));
