/**
 * The articles' master–replica failover pitfall, on real servers (a Redis master, its replica and three
 * Sentinels: infra/scripts/ensure-redis-sentinel.sh), made exact rather than hoped for.
 *
 * Redis replicates asynchronously: SET answers OK once the master has it, before any replica does. If
 * the master dies in that gap, Sentinel promotes a replica that never saw the lock, and a client that
 * asks the new master for the same lock is granted it while the first holder is still inside.
 * Here the replica replicates through a proxy (testing/master-proxy.ts) that, from one chosen moment,
 * keeps what the master sends down the replication link; the holder takes its lock right after that
 * moment, the master is SIGKILLed, Sentinel promotes the replica, and a second service instance (an
 * OS process, connected through Sentinel as ioredis does it) asks for the same lock.
 *
 * - uuid-lua and the watchdog: granted twice; both holdings valid at the same instant; one unit of
 *   stock sold twice. The watchdog learns it lost the lock only at its next renewal (lease / 3 later).
 * - watchdog-fenced: the fencing counter lives on the same master and is lost with it; the second
 *   holder is given the very token the first holds. A store that refuses only LOWER tokens cannot
 *   tell the two apart; the MySQL row of watchdog-fenced-mysql also records which holding brought
 *   its token and refuses the second (libs/stock/src/strategies/watchdog-fenced-mysql).
 * - RedLock (five independent masters, no replication): the node that dies takes one of the first
 *   holder's three keys with it; the second client reaches two nodes at most, no majority: refused.
 */
import Redis from 'ioredis';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { LockHolding } from '../distributed-lock';
import { forkTypeScript, freshKeyPrefix, RedisNodeGroup, testRedisOptions } from '../testing';
import { connectLock, type ConnectedLock, type FailoverLockName } from './testing/failover-locks';
import { SentinelFailover } from './testing/sentinel-failover';

const CONTENDER = resolve(__dirname, 'testing/failover-contender.ts');
const prefix = freshKeyPrefix();
const SENTINEL_LOCKS = ['uuid-lua', 'watchdog', 'watchdog-fenced'] as const;

/** What the second instance saw (failover-contender.ts). */
interface ContenderReport {
  granted: boolean;
  at?: number;
  fencingToken?: number;
  read?: number;
  sold?: boolean;
}

const contenders = new Set<ChildProcess>();
// A test that fails before a contender's report must not leave the process (and jest) waiting for it.
afterAll(() => contenders.forEach((child) => child.kill('SIGKILL')));

/**
 * The second instance, another process, started and connected ahead of the fault as a running
 * service's would be; `go()` has it ask for every lock at once and, granted one, sell a unit of its stock.
 */
async function startContender(addresses: string, jobs: [FailoverLockName, string, string][]): Promise<{ go(): Promise<ContenderReport[]> }> {
  const child = forkTypeScript(CONTENDER, [addresses, ...jobs.flat()]);
  contenders.add(child);
  const exited = new Promise<never>((_, fail) => child.once('exit', (code) => fail(new Error(`the contender exited (${code}) before its report`))));
  exited.catch(() => undefined);
  const next = <T>() => Promise.race([once(child, 'message').then(([message]) => message as T), exited]);
  await next();
  return {
    go: () => {
      const reports = next<ContenderReport[]>();
      child.send('go');
      return reports;
    },
  };
}

/** The first holder, in this process: its holding, when it learned it was lost (if it did), the stock it read. */
interface FirstHolder {
  holding: LockHolding;
  lostAt?: number;
  read: number;
}

/** Both held the lock at `at`: the first holder's lease had not run out and it had not been told it lost the lock. */
const heldAt = (first: FirstHolder, at: number) => at < first.holding.acquiredAt + first.holding.leaseMs && !(first.lostAt !== undefined && first.lostAt <= at);

describe('a lock on a Sentinel-watched master, failed over before the lock replicated', () => {
  let failover: SentinelFailover;
  let stock: Redis;
  const locks = new Map<FailoverLockName, ConnectedLock>();
  const first = new Map<FailoverLockName, FirstHolder>();
  const second = new Map<FailoverLockName, ContenderReport>();
  const lockKey = (name: FailoverLockName) => `${prefix}:lock:${name}`;
  const stockKey = (name: FailoverLockName) => `${prefix}:stock:${name}`;
  let earlierToken: number | undefined;
  let onMaster: number;
  let onReplica: number;
  let switched: string;

  // A Sentinel group, a failover and a process on ts-node: over a minute on this shared, loaded box.
  beforeAll(async () => {
    stock = new Redis(testRedisOptions());
    failover = await SentinelFailover.start();
    for (const name of SENTINEL_LOCKS) {
      locks.set(name, await connectLock(name, failover.sentinels));
      await stock.set(stockKey(name), 1);
    }
    const contender = await startContender(failover.sentinels, SENTINEL_LOCKS.map((name) => [name, lockKey(name), stockKey(name)]));
    const master = failover.connect();
    const replica = failover.connect({ role: 'slave' });
    try {
      // A grant before the fault, replicated (WAIT for the replica's acknowledgement): the counter is 1 on both.
      const earlier = (await locks.get('watchdog-fenced')!.lock.acquire(lockKey('watchdog-fenced'), { waitMs: 0, leaseMs: 60_000 }))!;
      earlierToken = earlier.fencingToken;
      await earlier.release();
      expect(await master.wait(1, 10_000)).toBe(1);

      failover.proxy.holdReplication();
      for (const name of SENTINEL_LOCKS) {
        const holding = (await locks.get(name)!.lock.acquire(lockKey(name), { waitMs: 0, leaseMs: 60_000 }))!;
        const holder: FirstHolder = { holding, read: Number(await stock.get(stockKey(name))) };
        holding.signal.addEventListener('abort', () => (holder.lostAt = Date.now()), { once: true });
        first.set(name, holder);
      }
      const keys = SENTINEL_LOCKS.map(lockKey);
      onMaster = await master.exists(...keys);
      onReplica = await replica.exists(...keys);
    } finally {
      master.disconnect();
      replica.disconnect();
    }
    switched = await failover.killMaster();
    const reports = await contender.go();
    SENTINEL_LOCKS.forEach((name, i) => second.set(name, reports[i]));
    // The first holders finish their read-check-write: the stock they read, less one.
    for (const [name, holder] of first) if (holder.read >= 1) await stock.set(stockKey(name), holder.read - 1);
  }, 180_000);

  afterAll(async () => {
    locks.forEach(({ close }) => close());
    await stock.del(...SENTINEL_LOCKS.map(stockKey));
    stock.disconnect();
    await failover?.stop();
  });

  it('the fault: the locks reached the master, not the replica (held back at the proxy), and Sentinel promoted the replica', () => {
    expect(onMaster).toBe(SENTINEL_LOCKS.length);
    expect(onReplica).toBe(0);
    expect(failover.proxy.held).toBeGreaterThan(0);
    expect(switched).toMatch(/^lab-master 127\.0\.0\.1 \d+ 127\.0\.0\.1 \d+$/);
  });

  it.each(['uuid-lua', 'watchdog'] as const)('%s: granted again to a second process while the first still holds it; one unit sold twice', (name) => {
    const a = first.get(name)!;
    const b = second.get(name)!;
    expect(b.granted).toBe(true);
    expect(heldAt(a, b.at!)).toBe(true);
    expect([a.read, b.read]).toEqual([1, 1]);
    // Stock 1, two sales: oversold by one.
    expect(Number(a.read >= 1) + Number(b.sold)).toBe(2);
  });

  it('watchdog-fenced: the counter is lost with the master, and the second holder is given the first holder\'s own token', () => {
    const a = first.get('watchdog-fenced')!;
    const b = second.get('watchdog-fenced')!;
    expect(earlierToken).toBe(1);
    expect(a.holding.fencingToken).toBe(2);
    expect(b.granted).toBe(true);
    expect(heldAt(a, b.at!)).toBe(true);
    expect(b.fencingToken).toBe(a.holding.fencingToken);
  });
});

describe('redlock on five independent nodes, one of them lost with the lock on it', () => {
  it('the second process is refused: with one of the three keys gone it reaches two nodes, no majority', async () => {
    const group = RedisNodeGroup.start();
    const { lock, close } = await connectLock('redlock', group.addresses.join(','));
    const nodes = group.addresses.map((address) => new Redis({ host: '127.0.0.1', port: Number(address.split(':')[1]) }));
    const key = `${prefix}:lock:redlock`;
    const stockKey = `${prefix}:stock:redlock`;
    const stock = new Redis(testRedisOptions());
    try {
      await stock.set(stockKey, 1);
      // Nodes 4 and 5 hold a stranger's minority grant, so the first holder wins exactly nodes 1, 2, 3.
      await Promise.all(nodes.slice(3).map((node) => node.set(key, 'stranger', 'PX', 60_000)));
      const a = (await lock.acquire(key, { waitMs: 0, leaseMs: 60_000 }))!;
      expect(await Promise.all(nodes.map((node) => node.get(key)))).toEqual([a.token, a.token, a.token, 'stranger', 'stranger']);
      await Promise.all(nodes.slice(3).map((node) => node.del(key)));
      nodes.forEach((node) => node.disconnect());
      // Node 3, one of the holder's keys on it, dies.
      group.stopNode(2);
      const [b] = await (await startContender(group.addresses.join(','), [['redlock', key, stockKey]])).go();
      expect(b).toEqual({ granted: false });
      expect(Number(await stock.get(stockKey))).toBe(1);
    } finally {
      close();
      nodes.forEach((node) => node.disconnect());
      await stock.del(stockKey);
      stock.disconnect();
      group.stop();
    }
  });
});
