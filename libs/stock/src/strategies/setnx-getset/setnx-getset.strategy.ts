import { setnxGetsetLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

/**
 * The SETNX + GETSET timestamp lock around the Redis stock read-check-write, on the order's clock (its
 * fault points' now(): this instance's, skewed by CLOCK_OFFSET_MS or a run's clock-offset fault).
 */
export const setnxGetset = lockedRedisStock('setnx-getset', [], (deps) => setnxGetsetLock(deps.lockRedis));
