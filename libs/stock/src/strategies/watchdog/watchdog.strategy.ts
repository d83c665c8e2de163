import type { StrategyDescription } from '@oversell/contracts';
import { WATCHDOG_SCRIPTS, WatchdogLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';

const DESCRIPTION: StrategyDescription = {
  name: 'watchdog',
  title: 'Watchdog lock (Redisson-style)',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'renewed',
  safe: true,
  description:
    'A reentrant lock stored as a hash {owner: holds}, taken and released by Lua scripts. While held, a watchdog renews the lease every third of it. The orders of one instance wait in a line per lock, first come first served: only its head talks to Redis, sleeping until the release message (or, as a fallback, the PTTL of the lock). A holder passes the lock straight to the next order of its own line in one script, up to 16 times in a row, then releases it and publishes the release. The instances take a free lock in the order they began waiting (a queue of instances beside the lock, as Redisson\'s fair lock keeps one of threads): the one that has waited longest gets it, and an instance that lets the lock go with orders of its own still waiting goes to the back.',
  guarantee: 'Never oversells on one Redis, whatever the business time: the lease is renewed while the holder lives. A holder that dies loses the lock within one lease.',
  pitfall:
    'A pause longer than the lease (stop-the-world GC, a frozen VM) stops the renewals too; the lock expires and another process enters. The holder is told (lock lost) only at the next renewal, and a write already on the wire still lands — only fencing tokens close that hole. On a Redis failover an unreplicated lock is lost.',
  reproduce: 'Not with the business delay: renewal covers it (run the expiry-pitfall scenario and watch it stay at 0). It takes a pause of the whole process longer than the lease between the stock read and the write, with no business delay: the pitfall preset gc-pause-past-the-lease (stop-the-world at stock-read) oversells it. Paused at lock-acquired, the holder wakes before it has read and reads the taker\'s stock; with a business delay its overdue renewal stops it first (lock_lost).',
  symptom:
    'Bars may last longer than the TTL instead of expiring: no dashed outlines and no red overlaps, and oversold ' +
    'stays 0 even with a business delay above the TTL.',
  steps: ['EVAL watchdog-acquire: take or re-enter the owner hash, PEXPIRE lease; a free lock only on this instance\'s turn in the queue of instances', 'if this instance has an order ahead in its line: wait for it to hand over the turn (or the lock itself)', 'if taken by another (or free on another instance\'s turn): keep this instance\'s place in the queue, wait for the release message or at most its PTTL, retry', 'start renewing every lease/3 (watchdog-renew, only while we own it)', 'GET stock, check, business delay', 'if the lock-lost signal fired: stop, write nothing', 'SET stock − n, INSERT the order', 'leaving with an order of ours waiting (and fewer than 16 hand-overs in a row): EVAL watchdog-pass gives it the lock', 'else EVAL watchdog-release: decrement holds; at 0 DEL and PUBLISH (the next order of this instance, if any, tries again from the back of the queue)', 'an instance whose orders have all stopped waiting leaves the queue (watchdog-leave-queue)'],
  choice: {
    benchLock: 'watchdog',
    runsOn: 'one Redis (pub/sub for the release message)',
    complexity: 'medium: reentrant hash, renewal timer, a line per instance and a queue of instances, five Lua scripts',
    reliability: 'exclusive on one Redis whatever the business time while the holder lives; a lost renewal raises lock-lost',
    underFault: {
      crash: 'Renewals stop with the process: the lease runs out within one TTL and the next order takes the lock.',
      pause: 'A stop-the-world pause freezes the renewals too: the lease runs out, another holder enters, and a write already past the check still lands: oversold (fencing closes it).',
      'store-cut': 'The failed renewal raises lock-lost and the holder gives its order up (lock_lost) instead of writing.',
      failover: 'The lock key lives on the Redis master only until it replicates: a master that dies first takes it along, the promoted replica grants the lock again and two holders sell the same unit (the master-failover pitfall, on a Sentinel group of the lab\'s own). The holder learns it only at its next renewal.',
    },
  },
  scripts: luaScriptsOf(...WATCHDOG_SCRIPTS),
};

/**
 * Redisson's watchdog lock around the Redis stock read-check-write. If a renewal fails, the holding's
 * signal fires and the section writes nothing (lock_lost).
 */
export const watchdog = lockedRedisStock(DESCRIPTION, (deps) => new WatchdogLock(deps.lockRedis, deps.lockSubscriber));
