import { preciseNow } from '../clock';
import { LockError } from '../errors';
import { useTestLockTable } from '../testing';
import { dbLockTableLock, type DbLockTableFlavour } from './db-lock-table.lock';

const table = useTestLockTable();
const LONG_LEASE_MS = 60_000;
const CONTENDERS = 20;

const lockOf = (flavour: DbLockTableFlavour) => dbLockTableLock(table.client, flavour);

describe.each(['owner', 'expiring'] as const)('db-lock-table, %s flavour', (flavour) => {
  it('grants a name to one of many first comers at once, and to the next after the release', async () => {
    const lock = lockOf(flavour);
    const name = table.freshName();
    const attempts = await Promise.all(Array.from({ length: CONTENDERS }, (_, i) => lock.acquire(name, { token: `t${i}`, waitMs: 0, leaseMs: LONG_LEASE_MS })));
    const winners = attempts.filter((holding) => holding !== null);
    expect(winners).toHaveLength(1);
    expect(await winners[0]!.release()).toBe(true);
    const next = await lock.acquire(name, { token: 'next', waitMs: 0, leaseMs: LONG_LEASE_MS });
    expect(next).not.toBeNull();
    expect(await next!.release()).toBe(true);
  });

  it('keeps names that differ only in case apart (binary columns, no collation)', async () => {
    const lock = lockOf(flavour);
    const name = table.freshName();
    const holdings = await Promise.all([`${name}:Stock`, `${name}:stock`].map((key) => lock.acquire(key, { waitMs: 0, leaseMs: LONG_LEASE_MS })));
    expect(holdings.every((holding) => holding !== null)).toBe(true);
    await Promise.all(holdings.map((holding) => holding!.release()));
  });

  it('breakLock frees a held lock whoever holds it; the holder\'s release then says it no longer owned it', async () => {
    const lock = lockOf(flavour);
    const name = table.freshName();
    const holder = await lock.acquire(name, { token: 'holder', waitMs: 0, leaseMs: LONG_LEASE_MS });
    expect(await lock.breakLock(name)).toBe(true);
    expect(await lock.breakLock(name)).toBe(false);
    const next = await lock.acquire(name, { token: 'next', waitMs: 0, leaseMs: LONG_LEASE_MS });
    expect(next).not.toBeNull();
    expect(await holder!.release()).toBe(false);
    // The broken holder's release left the next holder's lock alone.
    expect(await lock.acquire(name, { token: 'third', waitMs: 0, leaseMs: LONG_LEASE_MS })).toBeNull();
    expect(await next!.release()).toBe(true);
  });

  it('refuses a name longer than the table holds instead of truncating it into another name', async () => {
    await expect(lockOf(flavour).acquire(`${table.freshName()}:${'x'.repeat(255)}`, { waitMs: 0, leaseMs: LONG_LEASE_MS })).rejects.toThrow(LockError);
  });
});

describe('db-lock-table, owner flavour: no expiry', () => {
  const lock = lockOf('owner');

  it('ignores the lease: the row stays taken long after it, until its owner lets go', async () => {
    const name = table.freshName();
    const holder = await lock.acquire(name, { token: 'holder', waitMs: 0, leaseMs: 1 });
    expect(holder).not.toBeNull();
    // Waits 200 times the holder's lease and still finds the row taken.
    expect(await lock.acquire(name, { token: 'waiter', waitMs: 200, leaseMs: 1 })).toBeNull();
    expect(await holder!.release()).toBe(true);
    expect(await lock.acquire(name, { token: 'waiter', waitMs: 0, leaseMs: 1 })).not.toBeNull();
  });

  it('pitfall: a holder that dies without releasing deadlocks the name for every later acquire, until the lock is broken', async () => {
    const name = table.freshName();
    // The holder's process dies inside: its holding is never released.
    expect(await lock.acquire(name, { token: 'dead-holder', waitMs: 0, leaseMs: 1 })).not.toBeNull();
    const later = await Promise.all([0, 1, 2].map((i) => lock.acquire(name, { token: `later-${i}`, waitMs: 150, leaseMs: 1 })));
    expect(later).toEqual([null, null, null]);
    expect(await lock.breakLock(name)).toBe(true);
    expect(await lock.acquire(name, { token: 'after-break', waitMs: 0, leaseMs: 1 })).not.toBeNull();
  });
});

describe('db-lock-table, expiring flavour: a lease by the database clock', () => {
  const lock = lockOf('expiring');
  const LEASE_MS = 200;

  it('refuses while the lease runs; once it has passed, takes the row over with a lease of its own', async () => {
    const name = table.freshName();
    // The first lease starts at the database after this instant: acquiredAt is read when the reply
    // arrives, as late as the round trip made it, so it cannot bound the lease from below.
    const beforeFirst = preciseNow();
    const first = await lock.acquire(name, { token: 'first', waitMs: 0, leaseMs: LEASE_MS });
    expect(first).not.toBeNull();
    expect(await lock.acquire(name, { token: 'early', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    // Polls until the first holder's lease has passed: a dead holder's lock frees itself.
    const second = await lock.acquire(name, { token: 'second', waitMs: 10_000, leaseMs: LONG_LEASE_MS });
    expect(second).not.toBeNull();
    // 1 ms for the database clock's millisecond precision.
    expect(second!.acquiredAt - beforeFirst).toBeGreaterThanOrEqual(LEASE_MS - 1);
    // The takeover moved the lease too: a third is refused for the second's long lease.
    expect(await lock.acquire(name, { token: 'third', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    expect(await second!.release()).toBe(true);
  });

  it('pitfall: a holder slower than its lease is granted away while inside; its late release says so and leaves the new holder\'s row', async () => {
    const name = table.freshName();
    const slow = await lock.acquire(name, { token: 'slow', waitMs: 0, leaseMs: LEASE_MS });
    // The slow holder is still inside (never released yet) when the next one gets in.
    const next = await lock.acquire(name, { token: 'next', waitMs: 10_000, leaseMs: LONG_LEASE_MS });
    expect(next).not.toBeNull();
    expect(await slow!.release()).toBe(false);
    expect(await lock.acquire(name, { token: 'third', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    expect(await next!.release()).toBe(true);
  });
});
