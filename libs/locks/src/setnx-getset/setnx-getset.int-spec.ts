import Redis from 'ioredis';
import type { LockHooks } from '../distributed-lock';
import { observeLock, type HoldingReport } from '../observed-lock';
import { freshKeyPrefix, Gate, testRedisOptions } from '../testing';
import { setnxGetsetLock } from './setnx-getset.lock';

const LEASE_MS = 60_000;

let redis: Redis;
const prefix = freshKeyPrefix();
let n = 0;
const lockKey = () => `${prefix}:lock:${++n}`;

beforeAll(() => {
  redis = new Redis(testRedisOptions());
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

/** A lock whose process's clock stands still at `at`: the stamps it writes are known in advance. */
const lockWithClockAt = (at: number) => setnxGetsetLock(redis, { now: () => at });

describe('setnx-getset lock', () => {
  it('stamps a free key with now + lease, refuses while that stamp is ahead, takes it over once it is behind', async () => {
    const key = lockKey();
    const t = Date.now();
    const holder = await lockWithClockAt(t).acquire(key, { token: 'holder', waitMs: 0, leaseMs: LEASE_MS });
    expect(holder).not.toBeNull();
    expect(await redis.get(key)).toBe(String(t + LEASE_MS));
    expect(await lockWithClockAt(t + LEASE_MS).acquire(key, { token: 'too-early', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    const takeover = await lockWithClockAt(t + LEASE_MS + 1).acquire(key, { token: 'late', waitMs: 0, leaseMs: LEASE_MS });
    expect(takeover).not.toBeNull();
    expect(await redis.get(key)).toBe(String(t + LEASE_MS + 1 + LEASE_MS));
    expect(await takeover!.release()).toBe(true);
    expect(await redis.exists(key)).toBe(0);
  });

  it('pitfall 2: two waiters that read the same expired stamp both GETSET; one wins, and the key keeps the loser\'s stamp', async () => {
    const key = lockKey();
    const t = Date.now();
    // A holder whose lease ran out a second ago.
    await redis.set(key, String(t - 1000));
    const gate = new Gate();
    const hooks: LockHooks = { at: (point) => (point === 'stamp-read-before-getset' ? gate.pass() : Promise.resolve()) };
    // Two processes whose clocks differ by 1 ms, so each one's stamp is its own.
    const stampOf = (waiter: number) => String(t + waiter + LEASE_MS);
    const attempts = Promise.all([0, 1].map((waiter) => lockWithClockAt(t + waiter).acquire(key, { token: `waiter-${waiter}`, waitMs: 0, leaseMs: LEASE_MS, hooks })));
    // Both have read the expired stamp and decided to take over; now both GETSET.
    await gate.arrived(2);
    gate.release();
    const holdings = await attempts;

    expect(holdings.filter((holding) => holding !== null)).toHaveLength(1);
    const winner = holdings.findIndex((holding) => holding !== null);
    const loser = 1 - winner;
    expect(await redis.get(key)).toBe(stampOf(loser));
    // The winner's own expiry is gone from the key: its release finds someone else's stamp.
    expect(await holdings[winner]!.release()).toBe(false);
  });

  it('pitfall 3: a holder that outlived its lease DELs the lock of the one that took it over, and a third gets in beside the second', async () => {
    const key = lockKey();
    const reports: HoldingReport[] = [];
    const lock = observeLock(setnxGetsetLock(redis), (report) => reports.push(report));
    const shortLeaseMs = 100;

    const a = await lock.acquire(key, { token: 'A', waitMs: 0, leaseMs: shortLeaseMs });
    // A stays inside; B spins until A's stamp is behind its clock, then takes over with GETSET.
    const b = await lock.acquire(key, { token: 'B', waitMs: 10_000, leaseMs: LEASE_MS });
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();

    // A finishes and lets go: its DEL removes B's lock.
    expect(await a!.release()).toBe(false);
    expect(await redis.exists(key)).toBe(0);
    // C finds the key free and SETNXes it while B is still inside. Its lease is another length than B's:
    // stamps are whole ms, and on a fast machine C can stamp within B's ms (the same stamp, so B's release
    // would find "its own" in C's lock: the recipe cannot tell them apart).
    const c = await lock.acquire(key, { token: 'C', waitMs: 0, leaseMs: 2 * LEASE_MS });
    expect(c).not.toBeNull();
    // B lets go in turn and deletes C's lock: nobody's release found its own stamp.
    expect(await b!.release()).toBe(false);
    expect(await redis.exists(key)).toBe(0);
    expect(await c!.release()).toBe(false);

    const [heldByA, heldByB, heldByC] = ['A', 'B', 'C'].map((token) => reports.find((report) => report.token === token)!);
    // Who held the lock when: B entered before A left, C entered before B left.
    expect(heldByB.acquiredAt).toBeLessThan(heldByA.releasedAt);
    expect(heldByC.acquiredAt).toBeLessThan(heldByB.releasedAt);
    expect([heldByA, heldByB].map((report) => report.expired)).toEqual([true, true]);
  });
});
