import Redis from 'ioredis';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { forkTypeScript, freshKeyPrefix, testRedisOptions } from '../testing';
import { queuedProcesses, waitingProcesses } from './testing/process-queue';
import { queueKey, seenKey, WatchdogLock } from './watchdog-lock';

const LEASE_MS = 600;

let redis: Redis;
let subscriber: Redis;
let lock: WatchdogLock;
let prefix: string;

beforeAll(() => {
  redis = new Redis(testRedisOptions());
  subscriber = new Redis(testRedisOptions());
  lock = new WatchdogLock(redis, subscriber);
  prefix = freshKeyPrefix();
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await Promise.all([redis.quit(), subscriber.quit()]);
});

let n = 0;
const lockKey = () => `${prefix}:lock:${++n}`;

/** Another process's lock: its own connections, its own wake-up subscription, its own place in the queues. */
function otherProcess(): { lock: WatchdogLock; redis: Redis; subscriber: Redis; close(): Promise<void> } {
  const ownRedis = redis.duplicate();
  const ownSubscriber = subscriber.duplicate();
  return { lock: new WatchdogLock(ownRedis, ownSubscriber), redis: ownRedis, subscriber: ownSubscriber, close: async () => void (await Promise.all([ownRedis.quit(), ownSubscriber.quit()])) };
}

/** Polls until the key is gone and says how long that took; polling is the measurement here. */
async function msUntilGone(key: string, limitMs: number): Promise<number> {
  const started = Date.now();
  while ((await redis.exists(key)) === 1) {
    if (Date.now() - started > limitMs) throw new Error(`${key} still exists after ${limitMs} ms`);
    await sleep(10);
  }
  return Date.now() - started;
}

describe('watchdog lock', () => {
  it('holds past three leases while its holder lives, and frees within one lease after the holder is killed', async () => {
    const key = lockKey();
    const holder = forkTypeScript(join(__dirname, 'testing/lock-holder.ts'), [key, 'holder-process', String(LEASE_MS)]);
    try {
      await once(holder, 'message');
      // Three and a half leases: without renewal the key would have expired three times over.
      await sleep(LEASE_MS * 3.5);
      expect(await redis.hget(key, 'holder-process')).toBe('1');
      expect(await redis.pttl(key)).toBeGreaterThan(0);

      holder.kill('SIGKILL');
      await once(holder, 'exit');
      const freedAfter = await msUntilGone(key, LEASE_MS * 3);
      // At most one lease, plus Redis's expiry sampling slack.
      expect(freedAfter).toBeLessThanOrEqual(LEASE_MS + 150);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('is reentrant: the owner enters twice, the lock stays until it has left twice', async () => {
    const key = lockKey();
    const first = await lock.acquire(key, { token: 'owner-a', waitMs: 0, leaseMs: LEASE_MS });
    const second = await lock.acquire(key, { token: 'owner-a', waitMs: 0, leaseMs: LEASE_MS });
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await redis.hget(key, 'owner-a')).toBe('2');
    expect(await lock.acquire(key, { token: 'owner-b', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();

    expect(await second!.release()).toBe(true);
    expect(await redis.hget(key, 'owner-a')).toBe('1');
    expect(await lock.acquire(key, { token: 'owner-b', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();

    expect(await first!.release()).toBe(true);
    expect(await redis.exists(key)).toBe(0);
  });

  it('wakes a waiter with the release message, long before the lease would have run out', async () => {
    const key = lockKey();
    const longLease = 20_000;
    const holder = await lock.acquire(key, { token: 'holder', waitMs: 0, leaseMs: longLease });
    const other = otherProcess();
    try {
      const waiting = other.lock.acquire(key, { token: 'waiter', waitMs: 15_000, leaseMs: longLease });
      // The waiter is parked once its subscription is live (numsub counts it).
      while (((await redis.pubsub('NUMSUB', `${key}:released`)) as [string, number])[1] < 1) await sleep(5);
      const releasedAt = Date.now();
      await holder!.release();
      const woken = await waiting;
      const wokenAfter = Date.now() - releasedAt;
      expect(woken).not.toBeNull();
      expect(await redis.hget(key, 'waiter')).toBe('1');
      // The timed fallback would have waited for the lock's PTTL (~20 s); the message wakes it at once.
      expect(wokenAfter).toBeLessThan(1000);
      await woken!.release();
    } finally {
      await other.close();
    }
  });

  it('a waiter parked on a long lease tries again when its subscription comes back: a lock lost meanwhile (a failover) is taken at once', async () => {
    const key = lockKey();
    const longLease = 20_000;
    await lock.acquire(key, { token: 'holder', waitMs: 0, leaseMs: longLease });
    const other = otherProcess();
    try {
      let woken = false;
      const waiting = other.lock.acquire(key, { token: 'waiter', waitMs: 15_000, leaseMs: longLease }).finally(() => (woken = true));
      // Parked: subscribed, and its attempt after subscribing has taken its place in the queue of processes.
      while ((await redis.zcard(`${key}:queue`)) < 1) await sleep(5);
      // The key gone with no release message, as a master that dies before replicating takes it along.
      await redis.del(key);
      await sleep(300);
      expect(woken).toBe(false);
      const reconnectedAt = Date.now();
      other.subscriber.disconnect(true);
      const holding = await waiting;
      expect(holding).not.toBeNull();
      // Without the wake-up it would have slept out the holder's PTTL (~20 s).
      expect(Date.now() - reconnectedAt).toBeLessThan(2000);
      await holding!.release();
    } finally {
      await other.close();
    }
  });

  it('times out with null when the lock stays taken for the whole wait', async () => {
    const key = lockKey();
    const holder = await lock.acquire(key, { token: 'holder', waitMs: 0, leaseMs: LEASE_MS });
    const started = Date.now();
    expect(await lock.acquire(key, { token: 'waiter', waitMs: 300, leaseMs: LEASE_MS })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await holder!.release();
  });

  it('raises the lock-lost signal to the holder when a renewal finds the lock gone', async () => {
    const key = lockKey();
    const holding = await lock.acquire(key, { token: 'holder', waitMs: 0, leaseMs: LEASE_MS });
    expect(holding!.signal.aborted).toBe(false);
    // Someone (an operator, a failover that lost the key) removes the lock under the holder.
    await redis.del(key);
    await once(holding!.signal, 'abort');
    expect(holding!.signal.reason).toBeInstanceOf(Error);
    expect(await holding!.release()).toBe(false);
  });
});

describe('watchdog lock: the callers of one process', () => {
  /** Counts the release messages of a key (a real let-go: a hand-over inside a process publishes none). */
  async function countReleases(key: string): Promise<{ heard(): Promise<number>; stop(): Promise<void> }> {
    const observer = subscriber.duplicate();
    let releases = 0;
    observer.on('message', () => releases++);
    await observer.subscribe(`${key}:released`);
    return {
      // A reply on the same connection comes after every message published before it.
      heard: async () => {
        await observer.ping();
        return releases;
      },
      stop: async () => void (await observer.quit()),
    };
  }

  it('grants its waiters the lock in arrival order, passed straight from one to the next without letting it go', async () => {
    const key = lockKey();
    const releases = await countReleases(key);
    try {
      const holder = await lock.acquire(key, { token: 'holder', waitMs: 1000, leaseMs: LEASE_MS });
      const granted: string[] = [];
      const waiters = Array.from({ length: 10 }, (_, i) =>
        lock.acquire(key, { token: `w${i}`, waitMs: 10_000, leaseMs: LEASE_MS }).then(async (holding) => {
          granted.push(`${holding?.token}:${await redis.hget(key, `w${i}`)}`);
          return holding!.release();
        }),
      );
      expect(await holder!.release()).toBe(true);
      expect(await Promise.all(waiters)).toEqual(Array(10).fill(true));
      expect(granted).toEqual(Array.from({ length: 10 }, (_, i) => `w${i}:1`));
      // Only the last one let the lock go: every grant before it was a hand-over.
      expect(await releases.heard()).toBe(1);
      expect(await redis.exists(key)).toBe(0);
    } finally {
      await releases.stop();
    }
  });

  it('lets the lock go for the other processes at least once every 17 grants while its own line is long', async () => {
    const key = lockKey();
    const releases = await countReleases(key);
    const other = otherProcess();
    try {
      const holder = await lock.acquire(key, { token: 'holder', waitMs: 1000, leaseMs: LEASE_MS });
      const ours = Array.from({ length: 60 }, (_, i) => lock.acquire(key, { token: `w${i}`, waitMs: 20_000, leaseMs: LEASE_MS }).then((holding) => holding!.release()));
      const theirs = other.lock.acquire(key, { token: 'other-process', waitMs: 20_000, leaseMs: LEASE_MS }).then((holding) => holding?.release() ?? null);
      // The other process waits on the release channel (beside our observer) before our line starts moving.
      while (((await redis.pubsub('NUMSUB', `${key}:released`)) as [string, number])[1] < 2) await sleep(5);
      await holder!.release();
      expect(await Promise.all(ours)).toEqual(Array(60).fill(true));
      expect(await theirs).toBe(true);
      // 61 grants of ours in runs of at most 17 (one acquisition, 16 hand-overs) end in at least 4
      // releases, plus the other process's own; an unbounded hand-over would let go once.
      expect(await releases.heard()).toBeGreaterThanOrEqual(5);
    } finally {
      await releases.stop();
      await other.close();
    }
  });

  it('serves the processes in the order they started waiting: each let-go goes to the process that has waited longest, and the one letting go goes to the back', async () => {
    const key = lockKey();
    const [b, c] = [otherProcess(), otherProcess()];
    try {
      const grants: string[] = [];
      const callers = (process: WatchdogLock, name: string, count: number) =>
        Array.from({ length: count }, (_, i) =>
          process.acquire(key, { token: `${name}${i}`, waitMs: 20_000, leaseMs: LEASE_MS }).then((holding) => {
            grants.push(name);
            return holding!.release();
          }),
        );
      const holder = await lock.acquire(key, { token: 'holder', waitMs: 1000, leaseMs: LEASE_MS });
      grants.push('A');
      const all = callers(lock, 'A', 20);
      all.push(...callers(b.lock, 'B', 20));
      // B's process has its place before C's starts to wait.
      await waitingProcesses(redis, key, 1);
      all.push(...callers(c.lock, 'C', 20));
      await waitingProcesses(redis, key, 2);
      await holder!.release();
      expect(await Promise.all(all)).toEqual(Array(60).fill(true));
      // Runs of one process's grants (one acquisition and at most 16 hand-overs each), in turn.
      const runs = grants.reduce<string[]>((acc, name) => (acc.at(-1)?.startsWith(name) ? [...acc.slice(0, -1), `${name}${Number(acc.at(-1)!.slice(1)) + 1}`] : [...acc, `${name}1`]), []);
      expect(runs).toEqual(['A17', 'B17', 'C17', 'A4', 'B3', 'C3']);
      expect(await queuedProcesses(redis, key)).toEqual([]);
    } finally {
      await Promise.all([b.close(), c.close()]);
    }
  });

  /** A holder in this process, then B's process and C's queued behind it, in that order. */
  async function queuedBehindAHolder(key: string, b: ReturnType<typeof otherProcess>, c: ReturnType<typeof otherProcess>, bWaitMs = 10_000) {
    const holder = await lock.acquire(key, { token: 'holder', waitMs: 1000, leaseMs: LEASE_MS });
    const bWaits = b.lock.acquire(key, { token: 'b', waitMs: bWaitMs, leaseMs: LEASE_MS });
    await waitingProcesses(redis, key, 1);
    const cWaits = c.lock.acquire(key, { token: 'c', waitMs: 10_000, leaseMs: LEASE_MS });
    await waitingProcesses(redis, key, 2);
    return { holder: holder!, bWaits, cWaits };
  }

  it('announces a release to the process first in line alone: the head of the process behind it does not try again', async () => {
    const key = lockKey();
    const [b, c] = [otherProcess(), otherProcess()];
    const observer = subscriber.duplicate();
    const announced: string[] = [];
    observer.on('message', (_channel: string, message: string) => announced.push(message));
    await observer.subscribe(`${key}:released`);
    try {
      const { holder, bWaits, cWaits } = await queuedBehindAHolder(key, b, c);
      const [bProcess, cProcess] = await queuedProcesses(redis, key);
      // C's place is kept until its last attempt + two leases: each attempt of its head moves it on.
      const cKeptUntil = await redis.hget(seenKey(key), cProcess);
      await holder.release();
      const bHolds = await bWaits;
      expect(bHolds?.token).toBe('b');
      // C's subscriber has had the message once its PING is answered, and an attempt that message set
      // off has reached Redis once a PING on C's own connection is answered behind it.
      await c.subscriber.ping();
      await c.redis.ping();
      await observer.ping();
      expect(announced).toEqual([bProcess]);
      expect(await redis.hget(seenKey(key), cProcess)).toBe(cKeptUntil);
      await bHolds!.release();
      const cHolds = await cWaits;
      expect(cHolds?.token).toBe('c');
      await cHolds!.release();
      await observer.ping();
      // With nobody left in line, the release is for anyone.
      expect(announced).toEqual([bProcess, cProcess, 'released']);
    } finally {
      await observer.quit();
      await Promise.all([b.close(), c.close()]);
    }
  });

  it('a process whose callers all gave up leaves the queue: the process behind it takes the lock at the next release', async () => {
    const key = lockKey();
    const [b, c] = [otherProcess(), otherProcess()];
    try {
      const { holder, bWaits: givesUp, cWaits: waits } = await queuedBehindAHolder(key, b, c, 300);
      expect(await givesUp).toBeNull();
      const releasedAt = Date.now();
      await holder.release();
      const holding = await waits;
      expect(holding?.token).toBe('c');
      // B's place, had it stayed, would have been kept for two leases (1200 ms) after its last attempt.
      expect(Date.now() - releasedAt).toBeLessThan(LEASE_MS);
      await holding!.release();
    } finally {
      await Promise.all([b.close(), c.close()]);
    }
  });

  it('a place whose process stopped trying (a process that died waiting) holds the lock back only until it is no longer kept', async () => {
    const key = lockKey();
    const [seconds, micros] = (await redis.time()).map(Number);
    const nowMs = seconds * 1000 + Math.floor(micros / 1000);
    // A dead process's place: first in the queue, kept for another 400 ms, and nobody to take its turn.
    await redis.zadd(queueKey(key), seconds * 1_000_000 + micros - 1000, 'dead-process');
    await redis.hset(seenKey(key), 'dead-process', nowMs + 400);
    expect(await lock.acquire(key, { token: 'one-try', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
    const started = Date.now();
    const holding = await lock.acquire(key, { token: 'waiter', waitMs: 5000, leaseMs: LEASE_MS });
    expect(holding?.token).toBe('waiter');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(await queuedProcesses(redis, key)).toEqual([]);
    await holding!.release();
  });

  it('a single try is not served ahead of its own process\'s waiting callers, even when the lock is free and that process is first in the queue', async () => {
    const key = lockKey();
    const b = otherProcess();
    try {
      await b.lock.acquire(key, { token: 'holder', waitMs: 0, leaseMs: 5000 });
      const waiting = lock.acquire(key, { token: 'waiter', waitMs: 10_000, leaseMs: LEASE_MS });
      await waitingProcesses(redis, key, 1);
      // The lock vanishes with no release message: free, with this process first in the queue and its waiter asleep.
      await redis.del(key);
      expect(await lock.acquire(key, { token: 'one-try', waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
      const holding = await waiting;
      expect(holding?.token).toBe('waiter');
      await holding!.release();
    } finally {
      await b.close();
    }
  });

  it('keeps the place of a process with a short lease while a holder with a long one works: it is served first at the release', async () => {
    const key = lockKey();
    const [b, c] = [otherProcess(), otherProcess()];
    try {
      const holder = await lock.acquire(key, { token: 'holder', waitMs: 0, leaseMs: 5000 });
      // B's place is kept for 2 × 500 ms after each attempt (half of it to spare for a slow event loop);
      // the holder's lock lives 5 s between renewals.
      const shortLease = b.lock.acquire(key, { token: 'short-lease', waitMs: 10_000, leaseMs: 500 });
      await waitingProcesses(redis, key, 1);
      const longLease = c.lock.acquire(key, { token: 'long-lease', waitMs: 10_000, leaseMs: 5000 });
      await waitingProcesses(redis, key, 2);
      // The holder works for three of B's kept periods: B must keep its place by trying again meanwhile.
      await sleep(3000);
      await holder!.release();
      const first = await shortLease;
      expect(first?.token).toBe('short-lease');
      await first!.release();
      await (await longLease)!.release();
    } finally {
      await Promise.all([b.close(), c.close()]);
    }
  });

  it('hands the turn on when its holder loses the lock: the next caller takes it without waiting for a release', async () => {
    const key = lockKey();
    const holder = await lock.acquire(key, { token: 'holder', waitMs: 1000, leaseMs: LEASE_MS });
    const next = lock.acquire(key, { token: 'next', waitMs: 10_000, leaseMs: LEASE_MS });
    // The lock vanishes under the holder, which is stuck and never releases while the next one waits.
    await redis.del(key);
    await once(holder!.signal, 'abort');
    const taken = await next;
    expect(taken?.token).toBe('next');
    expect(await redis.hget(key, 'next')).toBe('1');
    expect(await holder!.release()).toBe(false);
    expect(await taken!.release()).toBe(true);
  });
});
