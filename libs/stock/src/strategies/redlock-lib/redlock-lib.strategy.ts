import { connectRedlockLib } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { lockOnService } from '../../compose/service-lock';

/** @sesamecare-oss/redlock around the Redis stock read-check-write, on the five nodes at REDLOCK_NODES. */
export const redlockLib = lockedRedisStock('redlock-lib', [], (deps) => lockOnService('redis-nodes', deps, connectRedlockLib));
