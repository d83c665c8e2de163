import type { StrategyDescription } from '@oversell/contracts';
import { WATCHDOG_FENCE, WATCHDOG_SCRIPTS, WatchdogLock } from '@oversell/locks';
import { lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { READ_STOCK } from '../../compose/mysql-stock-row';
import { MYSQL_STOCK_FENCE_SQL } from '../../compose/mysql-stock-fence';
import { luaScriptsOf, sqlScriptsOf } from '../../compose/scripts-of';

const DESCRIPTION: StrategyDescription = {
  name: 'watchdog-fenced-mysql',
  title: 'Watchdog lock with fencing tokens (MySQL row)',
  kind: 'lock',
  store: 'mysql',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'renewed',
  safe: true,
  description:
    'The fenced watchdog (each grant numbered by INCR of the lock\'s fencing counter, in a script that first checks the caller still owns the lock) around the MySQL product row as a fenced store: the holder claims the row with UPDATE products SET fence = <token>, fence_holder = <holding> WHERE … AND (fence < <token> OR (fence = <token> AND fence_holder = <holding>)), reads the stock, and writes it back in the order\'s transaction with UPDATE … SET stock = <read − n> under the same condition. No affected row means a higher token, or the same token from another holding, reached the row first: the order is refused as fenced and its transaction writes nothing.',
  guarantee:
    'Never oversells, even when the lock double-grants: a holder paused past its lease (stop-the-world GC) wakes with a token lower than the holder that took over, and the row refuses its write (outcome fenced, nothing taken). Otherwise as the watchdog: renewed while the holder lives, freed within one lease after it dies.',
  pitfall:
    'The lock is no safer than the watchdog: a pause longer than the lease still lets two holders in. Only the row, which checks the token, is protected; any other side effect of the stale holder still happens. A Redis failover loses the counter with the lock and issues a token again: the row, which also records which holding brought its token, lets in only the first of the two holders that carry it (the other is answered fenced), and a token below the row\'s highest (two or more grants lost) is refused; but both holders still believe they hold the lock, and anything else they do unfenced happens twice.',
  reproduce: 'A stop-the-world pause longer than the lease at the lock-acquired or stock-read point (its test blocks the holder\'s event loop with Atomics.wait): the stale holder is answered fenced and oversold stays 0.',
  symptom: 'Under a pause past the lease the lock timeline shows two holders at once (red), yet oversold stays 0 and the outcome counts show fenced for the stale holder\'s order.',
  steps: [
    'EVAL watchdog-acquire (and the watchdog\'s line, as for watchdog); renew every lease/3',
    'EVAL watchdog-fence: if the owner still holds the lock, INCR <lock>:fence → this grant\'s token',
    'UPDATE products SET fence = <token>, fence_holder = <holding> WHERE id, run_id AND (fence < <token> OR (fence = <token> AND fence_holder = <holding>)) (0 rows: fenced)',
    'SELECT stock; check; business delay',
    'BEGIN; UPDATE products SET stock = <read − n>, fence = <token>, fence_holder = <holding> WHERE id, run_id AND (the same condition); 0 rows: ROLLBACK, fenced; else INSERT the order; COMMIT',
    'EVAL watchdog-pass or watchdog-release, as for watchdog',
  ],
  choice: {
    runsOn: 'one Redis for the lock and its token counter, MySQL for the stock row that checks the token',
    complexity: 'high: the watchdog, a token counter, and a row that records the highest token and the holding that brought it',
    reliability: "never oversells even when the lock double-grants: the row refuses a lower token, and an equal token from another holding",
    underFault: {
      crash: 'As the watchdog: the lease runs out within one TTL.',
      pause: "The paused holder wakes with a token lower than its successor's; the row refuses its write (fenced).",
      'store-cut': 'As the watchdog: lock-lost stops the holder; a write already on the way is refused by its token.',
      failover: 'The lock double-grants (the key and the token counter are lost with the master), but the row lets in only the first of the two holders that carry the same token; the other is answered fenced and nothing is sold twice (master-failover preset). Anything else both holders do outside the row happens twice.',
    },
  },
  scripts: [...luaScriptsOf(...WATCHDOG_SCRIPTS, WATCHDOG_FENCE), ...sqlScriptsOf(READ_STOCK, ...MYSQL_STOCK_FENCE_SQL)],
};

/** The fenced watchdog around the fenced MySQL stock row: the row itself refuses a stale holder's write. */
export const watchdogFencedMysql = lockedMysqlStock(DESCRIPTION, (deps) => new WatchdogLock(deps.lockRedis, deps.lockSubscriber, { fenced: true }));
