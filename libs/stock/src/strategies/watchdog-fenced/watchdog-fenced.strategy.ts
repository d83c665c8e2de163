import type { StrategyDescription } from '@oversell/contracts';
import { WATCHDOG_FENCE, WATCHDOG_SCRIPTS, WatchdogLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'watchdog-fenced',
  title: 'Watchdog lock with fencing tokens (Redis stock)',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'renewed',
  safe: true,
  description:
    'The watchdog lock, each grant numbered: right after the grant, a script checks the caller still owns the lock hash and INCRs the lock\'s fencing counter, so every holder carries a token larger than every earlier holder\'s. The Redis stock is a fenced store: the read registers the token beside the stock (the highest seen), and the read and the write both refuse a token lower than that highest one, in the same script as the GET or SET.',
  guarantee:
    'Never oversells on one Redis (not across a failover: see the pitfall), even when the lock double-grants: a holder paused past its lease (stop-the-world GC) wakes with a token lower than the holder that took over, and the stock refuses its write (outcome fenced, nothing taken). Otherwise as the watchdog: renewed while the holder lives, freed within one lease after it dies.',
  pitfall:
    'The lock itself is no safer than the watchdog: a pause longer than the lease still lets two holders in. Only stores that check the token are protected — a side effect that does not (an e-mail, a call to another service) still happens twice. A Redis failover that loses the counter issues the same token again, and the stock takes an equal token: both holders sell the same unit (watchdog-fenced-mysql refuses a second holding with an equal token; see the master-failover preset).',
  reproduce: 'A stop-the-world pause longer than the lease at the lock-acquired or stock-read point (its test blocks the holder\'s event loop with Atomics.wait): the plain watchdog oversells, this one answers the stale holder fenced.',
  symptom: 'Under a pause past the lease the lock timeline shows two holders at once (red), yet oversold stays 0 and the outcome counts show fenced for the stale holder\'s order.',
  steps: [
    'EVAL watchdog-acquire (and the watchdog\'s line, as for watchdog); renew every lease/3',
    'EVAL watchdog-fence: if the owner still holds the lock, INCR <lock>:fence → this grant\'s token',
    'EVAL fenced-read-stock: if token < highest seen: fenced; else highest = token, GET stock',
    'check, business delay',
    'if the lock-lost signal fired: stop, write nothing',
    'EVAL fenced-write-stock: if token < highest seen: fenced (nothing written); else SET stock − n',
    'INSERT the order',
    'EVAL watchdog-pass or watchdog-release, as for watchdog',
  ],
  choice: {
    runsOn: 'one Redis; the stock must check the fencing token',
    complexity: 'medium-high: the watchdog plus a token counter and a store that refuses stale tokens',
    reliability: "never oversells on one Redis even when the lock double-grants: a stale holder's write is refused",
    underFault: {
      crash: 'As the watchdog: the lease runs out within one TTL.',
      pause: "The paused holder wakes with a token lower than its successor's; the stock refuses its write (fenced).",
      'store-cut': 'As the watchdog: lock-lost stops the holder; a write already on the way is refused by its token.',
      failover: 'The token counter lives on the same master and is lost with it: the second holder can be given the same token, which the store cannot tell apart.',
    },
  },
  scripts: luaScriptsOf(...WATCHDOG_SCRIPTS, WATCHDOG_FENCE, ...FENCED_STOCK_SCRIPTS),
};

/** The fenced watchdog around the fenced Redis stock: the stale holder's write is refused by the stock itself. */
export const watchdogFenced = lockedRedisStock(DESCRIPTION, (deps) => new WatchdogLock(deps.lockRedis, deps.lockSubscriber, { fenced: true }));
