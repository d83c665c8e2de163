import { REDLOCK_RELEASE, redlockDelayedRestart as redlockDelayedRestartLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { redisNodesLock } from '../../compose/redis-nodes-lock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';

/** redlock whose restarted nodes sit out one lease, around the Redis stock read-check-write, on the nodes at REDLOCK_NODES. */
export const redlockDelayedRestart = lockedRedisStock('redlock-delayed-restart', luaScriptsOf(REDLOCK_RELEASE), (deps) =>
  lockOnService('redis-nodes', deps, (addresses) => redisNodesLock(addresses, redlockDelayedRestartLock)),
);
