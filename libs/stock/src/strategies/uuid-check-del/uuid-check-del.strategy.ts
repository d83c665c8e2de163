import { uuidCheckDelLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

/** The owner-token lock with a client-side GET-compare-DEL release around the Redis stock read-check-write. */
export const uuidCheckDel = lockedRedisStock('uuid-check-del', [], (deps) => uuidCheckDelLock(deps.lockRedis));
