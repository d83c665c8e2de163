import { createConnection, createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { preciseNow } from '../clock';
import { freshKeyPrefix, testMysqlServer } from '../testing';
import { mysqlNamedLock } from './mysql-get-lock.lock';

const LEASE_MS = 1;
const prefix = freshKeyPrefix();
let names = 0;
const freshName = () => `${prefix}:lock:${++names}`;

/** Pools by size, ended after the file; a pool of one connection shows what happens to that connection. */
const pools: Pool[] = [];
function poolOf(connectionLimit: number): Pool {
  const pool = createPool({ ...testMysqlServer(), connectionLimit });
  pools.push(pool);
  return pool;
}
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

/** The connection id of the session that holds `name` (null: none), as the server sees it. */
async function holderOf(pool: Pool, name: string): Promise<number | null> {
  const [rows] = await pool.query<RowDataPacket[]>('SELECT IS_USED_LOCK(?) AS holder', [name]);
  return rows[0].holder as number | null;
}

describe('mysql-get-lock', () => {
  it('grants a name to one session at a time; a waiter blocked in GET_LOCK gets it at the release', async () => {
    const lock = mysqlNamedLock(poolOf(5));
    const name = freshName();
    const holder = await lock.acquire(name, { waitMs: 0, leaseMs: LEASE_MS });
    expect(holder).not.toBeNull();
    let waiterGranted = false;
    const waiter = lock.acquire(name, { waitMs: 10_000, leaseMs: LEASE_MS }).then((holding) => ((waiterGranted = true), holding));
    expect(await lock.acquire(name, { waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    expect(waiterGranted).toBe(false);
    expect(await holder!.release()).toBe(true);
    const next = await waiter;
    expect(next).not.toBeNull();
    expect(await next!.release()).toBe(true);
  });

  it('waits fractions of a second (MariaDB keeps them; MySQL would round 250 ms down to no wait at all)', async () => {
    const lock = mysqlNamedLock(poolOf(2));
    const name = freshName();
    const holder = await lock.acquire(name, { waitMs: 0, leaseMs: LEASE_MS });
    const started = preciseNow();
    expect(await lock.acquire(name, { waitMs: 250, leaseMs: LEASE_MS })).toBeNull();
    expect(preciseNow() - started).toBeGreaterThanOrEqual(249);
    await holder!.release();
  });

  it('hands its connection back to the pool only after RELEASE_LOCK: the next user of that connection holds nothing', async () => {
    const pool = poolOf(1);
    const name = freshName();
    const holding = await mysqlNamedLock(pool).acquire(name, { waitMs: 0, leaseMs: LEASE_MS });
    const holdersSession = await holderOf(poolOf(1), name);
    expect(await holding!.release()).toBe(true);
    const nextUser = await pool.getConnection();
    try {
      expect(nextUser.threadId).toBe(holdersSession);
      expect(await holderOf(poolOf(1), name)).toBeNull();
    } finally {
      nextUser.release();
    }
  });

  it('pitfall: a connection handed back to the pool still holding lets the lock outlive its holder, and the next user of that connection re-enters it', async () => {
    const pool = poolOf(1);
    const name = freshName();
    const leaked = await pool.getConnection();
    await leaked.query('SELECT GET_LOCK(?, 0)', [name]);
    // The bug: back to the pool without RELEASE_LOCK (an early return, an exception skipping the release).
    leaked.release();
    // Another process's order is refused: the name is still held, though its holder is done.
    expect(await mysqlNamedLock(poolOf(1)).acquire(name, { waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    // The next order on the same pool gets the same session, where GET_LOCK is reentrant: granted at once.
    const reentered = await mysqlNamedLock(pool).acquire(name, { waitMs: 0, leaseMs: LEASE_MS });
    expect(reentered).not.toBeNull();
    // Its release drops one of the session's two grants: the name is still held, by a session nobody holds.
    expect(await reentered!.release()).toBe(true);
    expect(await holderOf(poolOf(1), name)).toBe(leaked.threadId);
    await pool.query('SELECT RELEASE_ALL_LOCKS()');
  });

  it('leaves no stale lock: when a holder\'s connection closes without a release (a crash), the server frees the name', async () => {
    const name = freshName();
    const crashed = await createConnection(testMysqlServer());
    await crashed.query('SELECT GET_LOCK(?, 0)', [name]);
    const waiter = mysqlNamedLock(poolOf(1)).acquire(name, { waitMs: 10_000, leaseMs: LEASE_MS });
    // The socket closes as it does when the process dies: no RELEASE_LOCK, no COM_QUIT.
    crashed.destroy();
    const next = await waiter;
    expect(next).not.toBeNull();
    expect(await next!.release()).toBe(true);
  });

  it('pitfall: the holder\'s session killed mid-section lets a second holder in while the first works on; the first learns it only at its release', async () => {
    const pool = poolOf(1);
    const lock = mysqlNamedLock(pool);
    const name = freshName();
    const first = await lock.acquire(name, { waitMs: 0, leaseMs: LEASE_MS });
    // KILL from another connection: an operator, or a server's wait_timeout on a section longer than it.
    expect(await mysqlNamedLock(poolOf(1)).breakLock(name)).toBe(true);
    const second = await mysqlNamedLock(poolOf(1)).acquire(name, { waitMs: 10_000, leaseMs: LEASE_MS });
    expect(second).not.toBeNull();
    expect(first!.signal.aborted).toBe(false);
    expect(await first!.release()).toBe(false);
    // The killed connection left the pool: the next holding on it gets a live session.
    await second!.release();
    const third = await lock.acquire(name, { waitMs: 0, leaseMs: LEASE_MS });
    expect(third).not.toBeNull();
    expect(await third!.release()).toBe(true);
    expect(await lock.breakLock(name)).toBe(false);
  });
});
