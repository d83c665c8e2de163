import { randomUUID } from 'node:crypto';
import { preciseNow } from '../clock';
import type { DistributedLock } from '../distributed-lock';
import { LockError } from '../errors';
import { holdingOf } from '../holding';
import { loadSqlFile } from '../sql-file';

const GET_LOCK = loadSqlFile(__dirname, 'get-lock.sql');
const RELEASE_LOCK = loadSqlFile(__dirname, 'release-lock.sql');
const LOCK_HOLDER = loadSqlFile(__dirname, 'lock-holder.sql');
const KILL_SESSION = loadSqlFile(__dirname, 'kill-session.sql');

/** The statements one holding runs, in order; the breaking ones (an operator's) last. */
export const MYSQL_GET_LOCK_SQL = [GET_LOCK, RELEASE_LOCK, LOCK_HOLDER, KILL_SESSION] as const;

/** What the lock asks of a connection: a mysql2/promise PoolConnection fits as it is. */
export interface LockSession {
  query(sql: string, params?: unknown[]): Promise<[unknown, unknown]>;
  /** Back to the pool: only once the session holds no lock. */
  release(): void;
  /** Ends the session: the server lets go of every lock it held. */
  destroy(): void;
}

/**
 * Where the lock's sessions come from: a mysql2/promise Pool fits as it is. Give the lock a pool of its
 * own, on which nothing else takes a named lock: a waiter sits inside GET_LOCK on its connection for its whole wait, so waiters sharing the pool
 * that reads and writes the stock would take every connection and leave the holder none to write with.
 */
export interface LockSessionPool {
  getConnection(): Promise<LockSession>;
  query(sql: string, params?: unknown[]): Promise<[unknown, unknown]>;
}

export interface MysqlNamedLock extends DistributedLock {
  /** Ends the session that holds the name, whoever that is (an admin breaking a lock); whether one held it. */
  breakLock(key: string): Promise<boolean>;
}

const ER_NO_SUCH_THREAD = 1094;

/**
 * MySQL's own named lock: `GET_LOCK(name, wait)` on a connection taken from the pool for this holding
 * alone, `RELEASE_LOCK(name)` on the same connection to let go. The server keeps the lock in memory for
 * the session (no table, no row); a waiter blocks inside GET_LOCK and is woken by the release, in no
 * promised order. The lease is ignored. The wait covers the time spent waiting for a pool connection.
 *
 * Guarantees: exclusive while the holder's session lives, however long it stays inside. The server
 * frees the lock when the session ends, normally or not: a holder that crashes or whose connection
 * closes leaves no stale lock. A connection goes back to the pool only after RELEASE_LOCK said 1; on
 * anything else (0, NULL, an error) it is destroyed, so that the server ends its session.
 * Fails:
 * - A connection handed back to the pool still holding (the bug this lock's release avoids): the lock
 *   outlives the order, and the next user of that connection is granted the name at once, since
 *   GET_LOCK is reentrant per session (MariaDB 10.0.2+, MySQL 5.7+; n grants need n releases).
 * - The holder's session dying while it works (KILL, the server's wait_timeout on a section longer than
 *   it, a proxy's idle cut): the server releases the lock under a holder that keeps working, the next
 *   waiter is granted it, and both are inside. The holder is not told (its signal never fires); its
 *   release says false. There is no fencing token to refuse its late write.
 * - A client that vanishes without closing its socket keeps its lock until the server notices (TCP
 *   keepalive, wait_timeout): the lock lives as long as the server believes the session does.
 * - The lock lives in one server's memory: a failover to a replica forgets every lock.
 * - On MySQL the wait is whole seconds (a 300 ms wait rounds to 0); MariaDB keeps the fraction.
 */
export function mysqlNamedLock(pool: LockSessionPool): MysqlNamedLock {
  return {
    name: 'mysql-get-lock',
    async acquire(key, { waitMs, leaseMs, token = randomUUID() }) {
      const deadline = preciseNow() + waitMs;
      const session = await pool.getConnection();
      const granted = await valueOf(session, GET_LOCK.sql, [key, Math.max(0, deadline - preciseNow()) / 1000]).catch((error: unknown) => {
        session.destroy();
        throw error;
      });
      if (granted === 0) {
        session.release();
        return null;
      }
      if (granted !== 1) {
        session.destroy();
        throw new LockError(`GET_LOCK(${key}) answered NULL: the wait was killed`);
      }
      return holdingOf({ key, token, acquiredAt: preciseNow(), leaseMs, release: () => releaseOn(session, key) });
    },
    async breakLock(key) {
      const holder = await valueOf(pool, LOCK_HOLDER.sql, [key]);
      if (holder === null) return false;
      return pool.query(KILL_SESSION.sql, [holder]).then(
        () => true,
        (error: unknown) => {
          // The session ended on its own between the two statements: nothing was left to break.
          if ((error as { errno?: number }).errno === ER_NO_SUCH_THREAD) return false;
          throw error;
        },
      );
    },
  };
}

async function releaseOn(session: LockSession, key: string): Promise<boolean> {
  try {
    if ((await valueOf(session, RELEASE_LOCK.sql, [key])) === 1) {
      session.release();
      return true;
    }
  } catch (error) {
    session.destroy();
    // A lost connection (killed, cut) means a session already ended, and the lock with it.
    if ((error as { fatal?: boolean }).fatal) return false;
    throw error;
  }
  // 0 or NULL: this session no longer held the name; a session that surprises us goes nowhere near the pool.
  session.destroy();
  return false;
}

/** The single value of a one-row, one-column SELECT. */
async function valueOf(client: Pick<LockSession, 'query'>, sql: string, params: unknown[]): Promise<unknown> {
  const [rows] = await client.query(sql, params);
  return Object.values((rows as Record<string, unknown>[])[0])[0];
}
