import type { DistributedLock } from '../distributed-lock';
import { LockError } from '../errors';
import { affectedRows, isDeadlock, rowsFound, type SqlClient } from '../sql-client';
import { loadSqlFile } from '../sql-file';
import { spinLock } from '../spin-lock';

const TAKE_FREE_ROW = loadSqlFile(__dirname, 'take-free-row.sql');
const INSERT_OWNED_ROW = loadSqlFile(__dirname, 'insert-owned-row.sql');
const CLEAR_OWNER = loadSqlFile(__dirname, 'clear-owner.sql');
const TAKE_ROW_IF_EXPIRED = loadSqlFile(__dirname, 'take-row-if-expired.sql');
const OWNS_ROW = loadSqlFile(__dirname, 'owns-row.sql');
const BREAK_LOCK = loadSqlFile(__dirname, 'break-lock.sql');

/**
 * The table both flavours use, column for column as the stock library's migration
 * 1763800000003-create-locks-table creates it, for a database no migration runs on (tests, the lock bench).
 */
export const CREATE_LOCK_TABLE = loadSqlFile(__dirname, 'create-lock-table.sql');

/** Each flavour's statements, in the order one holding runs them; the breaking statement last. */
export const DB_LOCK_TABLE_SQL = {
  owner: [TAKE_FREE_ROW, INSERT_OWNED_ROW, CLEAR_OWNER, BREAK_LOCK],
  expiring: [TAKE_ROW_IF_EXPIRED, OWNS_ROW, CLEAR_OWNER, BREAK_LOCK],
} as const;

export type DbLockTableFlavour = keyof typeof DB_LOCK_TABLE_SQL;

/** The width of the table's name and owner columns, in bytes (VARBINARY(255)). */
const MAX_BYTES = 255;

export interface DbLockTable extends DistributedLock {
  /** Frees the name's row if someone holds it, whoever that is (an admin breaking a stale lock); whether it did. */
  breakLock(key: string): Promise<boolean>;
}

/**
 * The articles' lock table: one row per lock name in the MySQL table `locks` (created by the stock
 * library's migration 1763800000003-create-locks-table; name and owner are binary strings, so they
 * compare byte for byte, never case-insensitively). Waiters poll with jittered backoff (spinLock).
 *
 * 'owner' flavour (named db-lock-table): take = `UPDATE locks SET owner = <token> WHERE name = ? AND
 * owner IS NULL`, won when it changed the row; a name with no row yet is inserted already owned
 * (INSERT IGNORE: of two first comers one inserts, the other is ignored). Let go = `UPDATE … SET owner =
 * NULL WHERE name = ? AND owner = <token>`. The lease is ignored.
 * Guarantees: mutual exclusion however long the holder stays inside: each conditional statement is
 * atomic in InnoDB, and only the owner's own release frees the row. The release says whether it still
 * owned it (false only when the lock was broken meanwhile).
 * Fails: nothing frees the row of a holder that died inside (a crash, a SIGKILL, a connection lost
 * before the release). Every later acquire of that name waits its whole wait and times out, for ever,
 * until someone breaks the lock by hand (breakLock): SETNX with no TTL.
 *
 * 'expiring' flavour (named db-lock-table-ttl): take = INSERT … ON DUPLICATE KEY UPDATE that writes
 * owner and expires_at = now + lease only when the row is free or its expires_at has passed
 * (take-row-if-expired.sql), then a read-back of the owner: the affected-row count cannot say who won,
 * since with CLIENT_FOUND_ROWS (mysql2's default) an insert and a refused update both count 1. Let go
 * as the owner flavour does. Expiry is judged by the database's clock alone.
 * Guarantees: mutual exclusion while every holder finishes within its lease; a dead holder's lock
 * frees itself once its lease has passed. The release says whether it still owned the row.
 * Fails: nothing extends the lease. A holder slower than its lease loses the row without knowing: the
 * next waiter takes it over while the first is still inside (double grant, as uuid-lua), and the first
 * learns it only at its release (false).
 *
 * Both: a released row stays, free, one per name: taking an existing row locks that record only, while
 * concurrent INSERT … ON DUPLICATE KEY UPDATEs of a missing (or just deleted) name take gap locks and
 * deadlock each other. A deadlock that still happens (first comers on a new name) is a lost attempt,
 * not an error: InnoDB rolled the statement back. Every poll of every waiter is a round trip or two to
 * the database, and waiters are served in no order. A name or token over 255 bytes is refused
 * (LockError) rather than truncated into another's.
 */
export function dbLockTableLock(client: SqlClient, flavour: DbLockTableFlavour): DbLockTable {
  const takeRow = flavour === 'owner' ? takeFreeRow(client) : takeFreeOrExpiredRow(client);
  const lock = spinLock(flavour === 'owner' ? 'db-lock-table' : 'db-lock-table-ttl', {
    tryAcquire: (key, token, leaseMs) =>
      takeRow(fitting(key), fitting(token), leaseMs).catch((error: unknown) => {
        if (isDeadlock(error)) return false;
        throw error;
      }),
    release: async (key, token) => (await affectedRows(client, CLEAR_OWNER.sql, [key, token])) === 1,
  });
  return { ...lock, breakLock: async (key) => (await affectedRows(client, BREAK_LOCK.sql, [key])) === 1 };
}

type TakeRow = (key: string, token: string, leaseMs: number) => Promise<boolean>;

function takeFreeRow(client: SqlClient): TakeRow {
  return async (key, token) =>
    (await affectedRows(client, TAKE_FREE_ROW.sql, [token, key])) === 1 || (await affectedRows(client, INSERT_OWNED_ROW.sql, [key, token])) === 1;
}

function takeFreeOrExpiredRow(client: SqlClient): TakeRow {
  return async (key, token, leaseMs) => {
    await client.query(TAKE_ROW_IF_EXPIRED.sql, [key, token, Math.round(leaseMs * 1000)]);
    return (await rowsFound(client, OWNS_ROW.sql, [key, token])) === 1;
  };
}

function fitting(value: string): string {
  if (Buffer.byteLength(value) > MAX_BYTES) throw new LockError(`"${value}" is longer than the lock table's ${MAX_BYTES} bytes`);
  return value;
}
