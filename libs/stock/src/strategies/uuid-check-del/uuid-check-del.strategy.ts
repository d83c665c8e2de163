import type { StrategyDescription } from '@oversell/contracts';
import { uuidCheckDelLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'uuid-check-del',
  title: 'Owner token, GET-check-DEL release',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  description:
    'Writes a unique owner token into the lock (SET NX PX) and releases it in two commands: GET the lock, compare the value with its token in the application, and DEL the lock if it matched. ' +
    'The owner check uuid-lua does in one Lua script, done the way the articles warn against.',
  guarantee: 'A holder whose lease ran out before its release never deletes the lock. Mutual exclusion while every holder finishes within the TTL, release included.',
  pitfall:
    'The check and the delete are two commands. If the lease runs out between the GET and the DEL (a GC pause, a slow network) and a second order takes the lock meanwhile, the DEL deletes the second order\'s lock; ' +
    'a third order gets in while the second is still inside, and both sell the same stock. The release still reports success. Nothing extends the lease either, so uuid-lua\'s double grant applies too.',
  reproduce:
    'A pause between the GET and the DEL longer than the rest of the lease: a fault hook at release-checked-before-del (see its test). ' +
    'Under plain load the gap is one round trip wide and rarely hit; business delay > lock TTL shows the lease pitfall it shares with uuid-lua.',
  symptom:
    'Under load it looks like uuid-lua: with a business delay above the TTL, dashed red overlapping bars in the lock timeline and the oversold counter above 0. ' +
    'Its own gap is one round trip wide and the dashboard injects no pauses, so the DEL of a successor\'s lock shows in its test: the second and third holders overlap ' +
    'although neither lease ran out, and the first holder\'s bar is not marked expired (its GET said the lock was still its own).',
  steps: [
    'SET lock <token> NX PX ttl (retry with backoff)',
    'GET stock',
    'if stock < n: sold out',
    'business delay',
    'SET stock = stock − n',
    'INSERT the order',
    'GET lock; if it is not <token>: done (lost it)',
    'DEL lock (whoever holds it by now)',
  ],
  scripts: [],
};

/** The owner-token lock with a client-side GET-compare-DEL release around the Redis stock read-check-write. */
export const uuidCheckDel = lockedRedisStock(DESCRIPTION, (deps) => uuidCheckDelLock(deps.lockRedis));
