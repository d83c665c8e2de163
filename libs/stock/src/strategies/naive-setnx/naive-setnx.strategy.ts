import type { StrategyDescription } from '@oversell/contracts';
import { naiveSetnxLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'naive-setnx',
  title: 'Naive SETNX lock',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  description: 'Takes the lock with SET lock 1 NX PX ttl, spins with jittered backoff while it is taken, and releases with a plain DEL.',
  guarantee: 'Mutual exclusion only while every holder finishes within the lock TTL.',
  pitfall:
    'When the business time exceeds the TTL the lock expires under its holder; a second order takes it and reads the same stock. The first then DELs the lock that now belongs to the second, letting a third in. Overlapping holders oversell.',
  reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms).',
  symptom:
    'With a business delay above the lock TTL, bars get a dashed outline (lease expired) and turn red where a ' +
    'second holder took the same key; the oversold counter follows above 0.',
  steps: ['SET lock 1 NX PX ttl (retry with backoff until the wait times out)', 'GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n', 'INSERT the order', 'DEL lock (whoever holds it)'],
  scripts: [],
};

/** The naive SETNX lock (SET NX PX, plain DEL) around the Redis stock read-check-write. */
export const naiveSetnx = lockedRedisStock(DESCRIPTION, (deps) => naiveSetnxLock(deps.lockRedis));
