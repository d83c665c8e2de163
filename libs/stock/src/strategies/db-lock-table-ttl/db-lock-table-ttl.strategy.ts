import type { StrategyDescription } from '@oversell/contracts';
import { DB_LOCK_TABLE_SQL, dbLockTableLock } from '@oversell/locks';
import { LOCKED_MYSQL_STOCK_SQL, lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { sqlScriptsOf } from '../../compose/scripts-of';

const DESCRIPTION: StrategyDescription = {
  name: 'db-lock-table-ttl',
  title: 'Lock table row with expiry',
  kind: 'lock',
  store: 'mysql',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  description:
    'Takes the run\'s row in a MySQL lock table with INSERT … ON DUPLICATE KEY UPDATE that writes owner = <token> and expires_at = now + TTL only when the row is free or its expires_at has passed by the database\'s clock, then reads the owner back to learn whether it won (the affected-row count cannot tell). Spins with jittered backoff while the row is taken; lets go with UPDATE … SET owner = NULL WHERE name = ? AND owner = <token>. Under it, the product row\'s stock is read with a plain SELECT and written back as the value read minus n, with the order INSERT, in one transaction.',
  guarantee:
    'Mutual exclusion while every holder finishes within the TTL; a dead holder\'s row frees itself once its expires_at has passed. Expiry is judged by the database\'s clock alone, so the instances\' clocks do not matter, and a release never frees another holder\'s row.',
  pitfall:
    'Nothing extends the lease. When the business time exceeds the TTL the row expires under its holder: the next order takes it over and reads the same stock while the first is still inside, both write the stock they read (a lost update), and it oversells. The first holder learns it only at its release, which finds the row owned by someone else.',
  reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms): the lock timeline shows overlapping bars (see its test).',
  symptom:
    'With a business delay above the TTL, bars get a dashed outline (lease expired under the holder) and turn red where a second holder took the row while the first was inside; the oversold counter follows above 0.',
  steps: [
    'INSERT … ON DUPLICATE KEY UPDATE owner, expires_at only if free or expired; SELECT whether the row is ours (retry with backoff until the wait times out)',
    'SELECT stock (no FOR UPDATE)',
    'if stock < n: sold out',
    'business delay',
    'BEGIN; UPDATE products SET stock = <stock read − n>; INSERT the order; COMMIT',
    'UPDATE locks SET owner = NULL WHERE name = ? AND owner = <token>',
  ],
  choice: {
    benchLock: 'db-lock-table-ttl',
    runsOn: 'MySQL/MariaDB only (a locks table with expires_at)',
    complexity: 'low: conditional UPDATEs judged by the database clock',
    reliability: 'exclusive only while every holder finishes within its fixed TTL',
    underFault: {
      crash: "The dead holder's row expires at its expires_at and the next order takes it over.",
      pause: 'A holder paused past the TTL loses the row without knowing; the next order takes it and both write: oversold.',
      'store-cut': 'A holder cut off past the TTL loses the row; its write when the cut heals overwrites the stock: oversold.',
      failover: 'As safe as the database: a MySQL failover that loses committed rows loses the lock row with them.',
    },
  },
  scripts: sqlScriptsOf(...DB_LOCK_TABLE_SQL.expiring, ...LOCKED_MYSQL_STOCK_SQL),
};

/** The lock table's expiring row (lease by the database clock) around the MySQL stock row. */
export const dbLockTableTtl = lockedMysqlStock(DESCRIPTION, (deps) => dbLockTableLock(deps.dataSource, 'expiring'));
