import Redis from 'ioredis';
import { once } from 'node:events';
import { join } from 'node:path';
import { forkTypeScript, testRedisOptions, useTestRedis } from '../testing';
import { fenceKeyOf } from './grant-fence';
import { waitingProcesses } from './testing/process-queue';
import { WatchdogLock } from './watchdog-lock';

const PROCESSES = 3;
const GRANTS_PER_PROCESS = 15;

const store = useTestRedis();
let redis: Redis;
let subscriber: Redis;
let lock: WatchdogLock;

beforeAll(() => {
  redis = store.redis;
  subscriber = new Redis(testRedisOptions());
  lock = new WatchdogLock(redis, subscriber, { fenced: true });
});

afterAll(() => subscriber.quit());

const lockKey = () => store.freshKey();

/** Freezes this process's event loop for real, as a stop-the-world GC pause does: no timer runs, the watchdog's neither. */
function stopTheWorld(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Starts a process that takes the lock GRANTS_PER_PROCESS times once told to go; resolves when it is ready. */
async function grantProcess(key: string, logKey: string): Promise<{ go(): Promise<number[]> }> {
  const child = forkTypeScript(join(__dirname, 'testing/fenced-grants.ts'), [key, logKey, String(GRANTS_PER_PROCESS)]);
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`grant process exited with ${code}`)));
  exited.catch(() => undefined);
  await Promise.race([once(child, 'message'), exited]);
  return {
    go: async () => {
      const done = once(child, 'message');
      child.send('go');
      const [message] = (await Promise.race([done, exited])) as [{ tokens: number[] }];
      return message.tokens;
    },
  };
}

describe('fenced watchdog lock', () => {
  it('numbers every grant across 3 OS processes: tokens 1…N, each larger than every token that held the lock before it', async () => {
    const key = lockKey();
    const logKey = `${key}:log`;
    const processes = await Promise.all(Array.from({ length: PROCESSES }, () => grantProcess(key, logKey)));
    // Held (unfenced, so no token is spent) until every process waits in the lock's queue: from then on
    // they must take turns, however late one of them was scheduled after "go".
    const gate = (await new WatchdogLock(redis, subscriber).acquire(key, { waitMs: 0, leaseMs: 10_000 }))!;
    const granted = Promise.all(processes.map((p) => p.go()));
    await waitingProcesses(redis, key, PROCESSES);
    await gate.release();
    const perProcess = await granted;

    const total = PROCESSES * GRANTS_PER_PROCESS;
    // In the order the grants held the lock: strictly increasing, none skipped, none repeated.
    const heldInOrder = (await redis.lrange(logKey, 0, -1)).map(Number);
    expect(heldInOrder).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (const tokens of perProcess) {
      expect(tokens).toHaveLength(GRANTS_PER_PROCESS);
      expect([...tokens].sort((a, b) => a - b)).toEqual(tokens);
    }
    // The processes took turns, not one after the other: fencing is exercised across processes. (Only the
    // first round is in queue order: a process that let go takes a new place only at its second attempt.)
    const firstRound = heldInOrder.slice(0, PROCESSES).map((t) => perProcess.findIndex((p) => p.includes(t)));
    expect(new Set(firstRound).size).toBe(PROCESSES);
  });

  it('after a stop-the-world pause longer than the lease, the second holder gets a larger token than the stale one', async () => {
    const key = lockKey();
    const stale = await lock.acquire(key, { waitMs: 0, leaseMs: 150 });
    expect(stale?.fencingToken).toBe(1);
    stopTheWorld(600);
    // The lock expired during the pause: the watchdog could not renew it. The lock double-grants…
    const other = new WatchdogLock(redis, subscriber, { fenced: true });
    const fresh = await other.acquire(key, { waitMs: 0, leaseMs: 5000 });
    expect(fresh).not.toBeNull();
    // …but numbers the new grant above the stale one: a store that checks tokens refuses the stale holder.
    expect(fresh!.fencingToken).toBe(2);
    expect(await redis.get(fenceKeyOf(key))).toBe('2');
    expect(await stale!.release()).toBe(false);
    expect(await fresh!.release()).toBe(true);
  });

  it('a re-entry by the owner holding the lock is a grant too, and gets the next token', async () => {
    const key = lockKey();
    const first = await lock.acquire(key, { waitMs: 0, leaseMs: 5000, token: 'owner' });
    const again = await lock.acquire(key, { waitMs: 0, leaseMs: 5000, token: 'owner' });
    expect([first?.fencingToken, again?.fencingToken]).toEqual([1, 2]);
    await again!.release();
    await first!.release();
    expect(await redis.exists(key)).toBe(0);
  });

  it('breakLock deletes the lock whoever holds it; the counter stays, so the next grant is still numbered higher', async () => {
    const key = lockKey();
    const held = await lock.acquire(key, { waitMs: 0, leaseMs: 5000 });
    expect(await lock.breakLock(key)).toBe(true);
    const next = await lock.acquire(key, { waitMs: 0, leaseMs: 5000 });
    expect(next!.fencingToken).toBeGreaterThan(held!.fencingToken!);
    await next!.release();
    expect(await held!.release()).toBe(false);
  });
});
