import { connectRedlockDelayedRestart, REDLOCK_RELEASE } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';

/** redlock whose restarted nodes sit out one lease, around the Redis stock read-check-write, on the nodes at REDLOCK_NODES. */
export const redlockDelayedRestart = lockedRedisStock('redlock-delayed-restart', luaScriptsOf(REDLOCK_RELEASE), (deps) => lockOnService('redis-nodes', deps, connectRedlockDelayedRestart));
