import { naiveSetnxLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

/** The naive SETNX lock (SET NX PX, plain DEL) around the Redis stock read-check-write. */
export const naiveSetnx = lockedRedisStock('naive-setnx', [], (deps) => naiveSetnxLock(deps.lockRedis));
