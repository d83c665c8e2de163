import type { StrategyEntry } from '../strategy-entry';

/**
 * What every quorum lock on the RedLock nodes is, around the Redis stock: a fixed lease on five nodes,
 * slow to hand a hot key over (its waiters retry on their own and split the votes).
 */
export const QUORUM_LOCK_TRAITS = {
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: true,
  needs: ['redis-nodes'],
  grantRate: 'slow',
} as const satisfies Partial<StrategyEntry>;
