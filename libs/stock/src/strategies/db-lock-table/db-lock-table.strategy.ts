import type { StrategyDescription } from '@oversell/contracts';
import { DB_LOCK_TABLE_SQL, dbLockTableLock } from '@oversell/locks';
import { LOCKED_MYSQL_STOCK_SQL, lockedMysqlStock } from '../../compose/locked-mysql-stock';
import { sqlScriptsOf } from '../../compose/scripts-of';

const DESCRIPTION: StrategyDescription = {
  name: 'db-lock-table',
  title: 'Lock table row (owner, no expiry)',
  kind: 'lock',
  store: 'mysql',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: false,
  description:
    'Takes the run\'s row in a MySQL lock table with UPDATE locks SET owner = <token> WHERE name = ? AND owner IS NULL (a name with no row yet is inserted already owned, INSERT IGNORE), spins with jittered backoff while someone else owns it, and lets go with UPDATE … SET owner = NULL WHERE name = ? AND owner = <token>. The row has no expiry: the lock TTL setting is ignored. Under it, the product row\'s stock is read with a plain SELECT and written back as the value read minus n, with the order INSERT, in one transaction.',
  guarantee:
    'Mutual exclusion for as long as each holder lives to release it, however long the business time: each conditional UPDATE is atomic in InnoDB and only the owner\'s own UPDATE frees the row, so nothing expires under a holder and it never oversells on its own.',
  pitfall:
    'A holder that dies inside (process killed or crashed, connection lost before its release) leaves the row owned for ever: every later order spins until its lock wait runs out and is refused with lock_timeout, and the stock stops moving, until someone breaks the lock by hand (the break-locks admin action). SETNX with no TTL, in a table. Breaking it is a guess that the holder is dead: if it was only slow, a second order gets the row while the first is still inside, both write the stock they read, and it oversells.',
  reproduce:
    'Kill the process that holds the lock (a crash at lock-acquired, see its test): from then on every order answers 503 lock_timeout and the stock stays where it was. POST /api/products/:id/break-locks lets orders sell again.',
  symptom:
    'After a holder dies, the lock timeline shows no more bars, lock_timeout climbs to every order, and sold and remaining stay flat: nothing oversells, throughput drops to zero, and no TTL ends it. Breaking the lock of a holder that was only slow shows as overlapping bars and a red oversold counter.',
  steps: [
    'UPDATE locks SET owner = <token> WHERE name = ? AND owner IS NULL; no row yet: INSERT IGNORE it owned (retry with backoff until the wait times out)',
    'SELECT stock (no FOR UPDATE)',
    'if stock < n: sold out',
    'business delay',
    'BEGIN; UPDATE products SET stock = <stock read − n>; INSERT the order; COMMIT',
    'UPDATE locks SET owner = NULL WHERE name = ? AND owner = <token>',
  ],
  choice: {
    benchLock: 'db-lock-table',
    runsOn: 'MySQL/MariaDB only (a locks table)',
    complexity: 'low: conditional UPDATEs on a row, no expiry',
    reliability: 'exclusive for as long as each holder lives to release it; a dead holder blocks the lock for ever',
    underFault: {
      crash: 'The dead holder keeps the row: every later order waits until its lock wait runs out (lock_timeout) until someone breaks the lock by hand.',
      pause: 'Nothing expires: a paused holder keeps the lock, the others wait (and time out if the pause is long); nothing is sold twice.',
      'store-cut': 'Cut off from MySQL, the holder cannot write or release; the row stays owned until it comes back.',
      failover: 'As safe as the database: a MySQL failover that loses committed rows loses the lock row with them.',
    },
  },
  scripts: sqlScriptsOf(...DB_LOCK_TABLE_SQL.owner, ...LOCKED_MYSQL_STOCK_SQL),
};

/** The lock table's owner row (no expiry) around the MySQL stock row. */
export const dbLockTable = lockedMysqlStock(DESCRIPTION, (deps) => dbLockTableLock(deps.dataSource, 'owner'));
