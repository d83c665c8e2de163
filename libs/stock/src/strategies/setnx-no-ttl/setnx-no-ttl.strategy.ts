import { setnxNoTtlLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

/** The SETNX lock without expiry (SETNX, plain DEL) around the Redis stock read-check-write. */
export const setnxNoTtl = lockedRedisStock('setnx-no-ttl', [], (deps) => setnxNoTtlLock(deps.lockRedis));
