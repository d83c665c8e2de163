import { redlockLib as redlockLibLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { redisNodesLock } from '../../compose/redis-nodes-lock';
import { lockOnService } from '../../compose/service-lock';

/** @sesamecare-oss/redlock around the Redis stock read-check-write, on the five nodes at REDLOCK_NODES. */
export const redlockLib = lockedRedisStock('redlock-lib', [], (deps) => lockOnService('redis-nodes', deps, (addresses) => redisNodesLock(addresses, redlockLibLock)));
