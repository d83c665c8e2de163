import type { StrategyDescription } from '@oversell/contracts';
import { setnxGetsetLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'setnx-getset',
  title: 'SETNX + GETSET timestamp lock',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  description:
    'The old redis.io SETNX recipe: the lock\'s value is its holder\'s expiry time by its own clock (now + TTL) and the key never expires. ' +
    'A waiter that reads a stamp already behind its own clock takes the lock over with GETSET, and wins only if GETSET hands back the expired stamp it read. Released with a plain delete that checks nothing (GETDEL: a DEL that also hands back whose stamp it removed).',
  guarantee: 'Mutual exclusion while every instance\'s clock agrees and every holder finishes within the TTL; a dead holder\'s lock is taken over once its stamp is past.',
  pitfall:
    'Expiry is judged by the waiter\'s clock against a stamp the holder\'s clock wrote: an instance whose clock runs ahead by more than the TTL takes a live lock over, and both holders sell the same stock. ' +
    'Waiters that read the same expired stamp all GETSET: one wins, but the losers overwrite its expiry with their own. ' +
    'The DEL release checks nothing: a holder that outlived its TTL deletes the lock of the one that took it over, and a third order gets in beside the second.',
  reproduce:
    'Run two instances, one with CLOCK_OFFSET_MS above the lock TTL (e.g. TTL 2000 ms, offset 60000): the skewed instance takes over locks its peer still holds. ' +
    'Or, on equal clocks, business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms).',
  symptom:
    'With a skewed instance, red overlapping bars in the lock timeline although no lease outlived its business time, and the oversold counter above 0; ' +
    'with equal clocks and a TTL above the business delay, none of that.',
  steps: [
    'SETNX lock <now + ttl>: taken',
    'else GET lock; stamp still ahead of my clock: retry with backoff',
    'stamp behind my clock: GETSET lock <now + ttl>; taken only if it returns the stamp I read',
    'GET stock',
    'if stock < n: sold out',
    'business delay',
    'SET stock = stock − n',
    'INSERT the order',
    'GETDEL lock (whoever holds it; the stamp returned says whether it was still mine)',
  ],
  scripts: [],
};

/**
 * The SETNX + GETSET timestamp lock around the Redis stock read-check-write, on the order's clock (its
 * fault points' now(): this instance's, skewed by CLOCK_OFFSET_MS or a run's clock-offset fault).
 */
export const setnxGetset = lockedRedisStock(DESCRIPTION, (deps) => setnxGetsetLock(deps.lockRedis));
