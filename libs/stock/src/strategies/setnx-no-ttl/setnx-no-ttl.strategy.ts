import type { StrategyDescription } from '@oversell/contracts';
import { setnxNoTtlLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'setnx-no-ttl',
  title: 'SETNX without expiry',
  kind: 'lock',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: false,
  description: 'Takes the lock with SETNX lock 1 and nothing else (no TTL: the lock TTL setting is ignored), spins with jittered backoff while it is taken, and releases with a plain DEL.',
  guarantee: 'Mutual exclusion while every holder lives to release it, however long the business time: nothing expires under a holder, so it never oversells.',
  pitfall:
    'A holder that dies inside (process killed or crashed, connection lost before its DEL) leaves the lock with no expiry, held forever. Every later order spins until its lock wait runs out and is refused with lock_timeout: a deadlock that sells nothing more, until someone deletes the key (the break-locks admin action).',
  reproduce: 'Kill the process that holds the lock (a crash at lock-acquired, see its test): from then on every order answers 503 lock_timeout and the stock stays where it was. POST /api/products/:id/break-locks lets orders sell again.',
  symptom:
    'After a holder dies, the lock timeline shows no more bars (no one is granted the lock), lock_timeout climbs to every order, ' +
    'and sold and remaining stay flat. Nothing oversells. Throughput drops to zero, and no TTL ends it.',
  steps: ['SETNX lock 1 (retry with backoff until the wait times out); no expiry is set', 'GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n', 'INSERT the order', 'DEL lock (whoever holds it)'],
  scripts: [],
};

/** The SETNX lock without expiry (SETNX, plain DEL) around the Redis stock read-check-write. */
export const setnxNoTtl = lockedRedisStock(DESCRIPTION, (deps) => setnxNoTtlLock(deps.lockRedis));
