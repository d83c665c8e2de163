import type { StrategyDescription } from '@oversell/contracts';
import { setnxExpireLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'setnx-expire',
  title: 'SETNX, then PEXPIRE',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  description: 'Takes the lock with SETNX lock <token>, then gives it a TTL with a second command, PEXPIRE lock ttl; spins with jittered backoff while it is taken, and releases with a plain DEL.',
  guarantee: 'Mutual exclusion while every holder finishes within the lock TTL; a holder that dies after its PEXPIRE loses the lock when the TTL runs out.',
  pitfall:
    'Taking the lock is two commands. A holder that dies between the SETNX and the PEXPIRE leaves a lock with no TTL, held forever: every later order times out (lock_timeout) and nothing sells until someone deletes the key (the break-locks admin action). ' +
    'SET lock <token> NX PX ttl (naive-setnx) does both in one command, so a dead holder\'s lock is gone within one TTL. It also has naive-setnx\'s lease pitfall: business time > TTL lets a second holder in, and the plain DEL of the first deletes the second\'s lock. Oversells.',
  reproduce:
    'Kill the holder between the two commands (a crash at lock-set-before-expire, see its test): the lock key has no TTL (PTTL −1) and every later order answers 503 lock_timeout. Business delay > lock TTL shows the lease pitfall.',
  symptom:
    'After a holder dies between SETNX and PEXPIRE, the lock timeline shows no more bars, lock_timeout climbs to every order, and sold and remaining stay flat. ' +
    'With a business delay above the TTL instead: dashed, red overlapping bars and the oversold counter above 0, as naive-setnx.',
  steps: [
    'SETNX lock <token> (retry with backoff until the wait times out)',
    'PEXPIRE lock ttl (a second command: a holder dying before it leaves a lock that never expires)',
    'GET stock',
    'if stock < n: sold out',
    'business delay',
    'SET stock = stock − n',
    'INSERT the order',
    'DEL lock (whoever holds it)',
  ],
  scripts: [],
};

/** SETNX then PEXPIRE, two commands, plain DEL, around the Redis stock read-check-write. */
export const setnxExpire = lockedRedisStock(DESCRIPTION, (deps) => setnxExpireLock(deps.lockRedis));
