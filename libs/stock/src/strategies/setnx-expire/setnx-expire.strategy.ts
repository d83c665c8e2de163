import { setnxExpireLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

/** SETNX then PEXPIRE, two commands, plain DEL, around the Redis stock read-check-write. */
export const setnxExpire = lockedRedisStock('setnx-expire', [], (deps) => setnxExpireLock(deps.lockRedis));
