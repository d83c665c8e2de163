import { Exception, type Client } from 'node-zookeeper-client';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LockHolding } from '../distributed-lock';
import { CuttableProxy } from '../cuttable-proxy';
import { expireSession, forkTypeScript, freshKeyPrefix, testZookeeperClient, testZookeeperConnect } from '../testing';
import { failedWith, zk } from './zookeeper-calls';
import { ZookeeperLock, ZookeeperLockLostError, ZookeeperReleaseUnconfirmedError } from './zookeeper-lock';

let client: Client;
let lock: ZookeeperLock;
const root = `/${freshKeyPrefix()}`;
let n = 0;
const lockKey = () => `lock-${++n}`;
const children: ChildProcess[] = [];

beforeAll(async () => {
  client = await testZookeeperClient();
  lock = new ZookeeperLock(client, root);
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await removeTree(root);
  client.close();
});

async function removeTree(path: string): Promise<void> {
  const names = await zk<string[]>((done) => client.getChildren(path, done)).catch((error) => (failedWith(error, Exception.NO_NODE) ? [] : Promise.reject(error)));
  for (const name of names) await removeTree(`${path}/${name}`);
  await zk<void>((done) => client.remove(path, -1, done)).catch(() => undefined);
}

/** The lock's line, lowest sequence (the holder) first, as full paths. */
async function line(key: string): Promise<string[]> {
  const dir = `${root}/${key}`;
  const names = await zk<string[]>((done) => client.getChildren(dir, done)).catch((error) => (failedWith(error, Exception.NO_NODE) ? [] : Promise.reject(error)));
  return names.sort((a, b) => Number(a.slice(-10)) - Number(b.slice(-10))).map((name) => `${dir}/${name}`);
}

/** Waits until the line is `length` long, each look a watch on the lock's children (no polling). */
async function lineOf(key: string, length: number): Promise<string[]> {
  const dir = `${root}/${key}`;
  for (;;) {
    const changed = new Promise<void>((resolve) => client.getChildren(dir, () => resolve(), () => undefined));
    const nodes = await line(key);
    if (nodes.length >= length) return nodes;
    await changed;
  }
}

const sequenceOf = (path: string) => Number(path.slice(-10));

type Grant = [fencingToken: number, counterRead: number];

function fork(file: string, args: string[]): ChildProcess {
  const child = forkTypeScript(join(__dirname, 'testing', file), [root, ...args]);
  children.push(child);
  return child;
}

/** The first message of a child process; fails if it exits before sending one. */
async function reportOf<T>(child: ChildProcess): Promise<T> {
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`child exited (${code}) before reporting`);
  });
  const [message] = (await Promise.race([once(child, 'message'), exited])) as [T];
  return message;
}

/** `processes` OS processes, each with `clients` ZooKeeper sessions looping `rounds` acquire → counter + 1 → release. */
function contenders(processes: number, key: string, counterPath: string, clients: number, rounds: number): Promise<Grant[]>[] {
  return Array.from({ length: processes }, async () => (await reportOf<{ grants: Grant[] }>(fork('zookeeper-contender.ts', [key, counterPath, String(clients), String(rounds)]))).grants);
}

async function counterNode(key: string): Promise<string> {
  const path = `${root}/${key}-counter`;
  await zk((done) => client.mkdirp(path, Buffer.from('0'), done));
  return path;
}

// The tests that fork processes: each starts ts-node, 10-20 s apiece on a loaded 2-core box.
const FORKING_MS = 120_000;

describe('zookeeper lock', () => {
  it('excludes: 3 processes × 3 sessions × 20 read-increment-write rounds on a ZooKeeper counter lose no increment', async () => {
    const key = lockKey();
    const counterPath = await counterNode(key);
    const grants = (await Promise.all(contenders(3, key, counterPath, 3, 20))).flat();
    expect(grants).toHaveLength(180);
    expect(Number(String(await zk<Buffer>((done) => client.getData(counterPath, done))))).toBe(180);
    // Every holder read what the one before it wrote: each count was read exactly once.
    expect(grants.map(([, read]) => read).sort((a, b) => a - b)).toEqual(Array.from({ length: 180 }, (_, i) => i));
    // The fencing token grew with every grant: token order is grant (counter) order.
    const byGrant = [...grants].sort(([, a], [, b]) => a - b).map(([token]) => token);
    expect(byGrant).toEqual([...byGrant].sort((a, b) => a - b));
    expect(await line(key)).toEqual([]);
  }, FORKING_MS);

  it('is fair: 9 waiters in 3 processes are granted in their arrival (sequence) order', async () => {
    const key = lockKey();
    const counterPath = await counterNode(key);
    const holder = (await lock.acquire(key, { waitMs: 0, leaseMs: 0 }))!;
    expect(holder).not.toBeNull();
    const reports = contenders(3, key, counterPath, 3, 1);
    const arrived = await lineOf(key, 10);
    expect(await holder.release()).toBe(true);
    const grants = (await Promise.all(reports)).flat();
    const inGrantOrder = [...grants].sort(([, a], [, b]) => a - b).map(([token]) => token);
    expect(inGrantOrder).toEqual(arrived.slice(1).map(sequenceOf));
    expect(inGrantOrder[0]).toBeGreaterThan(holder.fencingToken!);
  }, FORKING_MS);

  it('has each waiter watch only the node just before its own; deleting a waiter’s node wakes only the one behind it', async () => {
    const key = lockKey();
    // The real client, with every watch it sets and every line listing written down.
    const watcherClient = await testZookeeperClient();
    const watched: string[] = [];
    let listings = 0;
    const [getData, getChildren] = [watcherClient.getData.bind(watcherClient), watcherClient.getChildren.bind(watcherClient)];
    watcherClient.getData = ((path: string, ...rest: unknown[]) => {
      if (rest.length === 2) watched.push(path);
      return (getData as (...args: unknown[]) => void)(path, ...rest);
    }) as Client['getData'];
    watcherClient.getChildren = ((path: string, ...rest: unknown[]) => {
      if (rest.length === 2) throw new Error('a waiter watched the whole line (herd)');
      listings++;
      return (getChildren as (...args: unknown[]) => void)(path, ...rest);
    }) as Client['getChildren'];
    const watching = async (count: number) => {
      while (watched.length < count) await sleep(5);
    };
    const waiters = new ZookeeperLock(watcherClient, root);
    try {
      const holder = (await lock.acquire(key, { waitMs: 0, leaseMs: 0 }))!;
      const waiting: Promise<LockHolding | null>[] = [];
      for (let i = 1; i <= 4; i++) {
        waiting.push(waiters.acquire(key, { waitMs: 30_000, leaseMs: 0 }));
        await watching(i);
      }
      const nodes = await line(key);
      expect(nodes).toHaveLength(5);
      expect(watched).toEqual(nodes.slice(0, 4));
      expect(listings).toBe(4);

      // Waiter 2's node goes: waiter 3 (watching it) wakes, lists the line once and watches waiter 1's node.
      await zk<void>((done) => client.remove(nodes[2], -1, done));
      await watching(5);
      expect(watched[4]).toBe(nodes[1]);
      // Watch events come before later answers on the same connection: anyone else woken has listed by now.
      await zk((done) => watcherClient.exists(root, done));
      expect(listings).toBe(5);

      expect(await holder.release()).toBe(true);
      const first = (await waiting[0])!;
      expect(first.fencingToken).toBe(sequenceOf(nodes[1]));
      const secondLost = expect(waiting[1]).rejects.toBeInstanceOf(ZookeeperLockLostError);
      expect(await first.release()).toBe(true);
      await secondLost;
      for (const index of [2, 3]) {
        const holding = (await waiting[index])!;
        expect(holding.fencingToken).toBe(sequenceOf(nodes[index + 1]));
        expect(await holding.release()).toBe(true);
      }
      // Each release woke only the waiters watching the released node, who found themselves first.
      expect(watched).toHaveLength(5);
      expect(await line(key)).toEqual([]);
    } finally {
      watcherClient.close();
    }
  });

  it('hands a killed holder process’s lock to the next waiter once its session expires', async () => {
    const key = lockKey();
    const holder = fork('zookeeper-holder.ts', [key, '1000']);
    const { held } = await reportOf<{ held: number }>(holder);
    const [holderNode] = await line(key);
    expect(sequenceOf(holderNode)).toBe(held);
    const waiting = lock.acquire(key, { waitMs: 30_000, leaseMs: 0 });
    await lineOf(key, 2);
    holder.kill('SIGKILL');
    const next = (await waiting)!;
    expect(next).not.toBeNull();
    expect(next.fencingToken).toBeGreaterThan(held);
    expect(await line(key)).not.toContain(holderNode);
    expect(await next.release()).toBe(true);
  }, FORKING_MS);

  it('raises the holding signal when its session expires; the node is gone and release says it no longer held the lock', async () => {
    const key = lockKey();
    const doomed = await testZookeeperClient({ sessionTimeout: 1000 });
    try {
      const holding = (await new ZookeeperLock(doomed, root).acquire(key, { waitMs: 0, leaseMs: 0 }))!;
      expect(holding.signal.aborted).toBe(false);
      const aborted = once(holding.signal, 'abort');
      const expired = once(doomed, 'expired');
      await expireSession(doomed);
      await aborted;
      await expired;
      expect(await line(key)).toEqual([]);
      // The lock is free for the next caller at once.
      const next = await lock.acquire(key, { waitMs: 0, leaseMs: 0 });
      expect(next).not.toBeNull();
      expect(await holding.release()).toBe(false);
      expect(await next!.release()).toBe(true);
    } finally {
      doomed.close();
    }
  });

  it('times out with null after the wait and leaves no node behind (waitMs 0: one attempt)', async () => {
    const key = lockKey();
    const holding = (await lock.acquire(key, { waitMs: 0, leaseMs: 0 }))!;
    expect(await lock.acquire(key, { waitMs: 300, leaseMs: 0 })).toBeNull();
    expect(await lock.acquire(key, { waitMs: 0, leaseMs: 0 })).toBeNull();
    expect(await line(key)).toHaveLength(1);
    expect(await holding.release()).toBe(true);
    expect(await line(key)).toEqual([]);
  });
});

describe('zookeeper lock, with ZooKeeper out of reach (its connection cut, the session alive)', () => {
  let proxy: CuttableProxy;
  let cutOff: Client;

  beforeEach(async () => {
    const [host, port] = testZookeeperConnect().split(',')[0].split(':');
    proxy = new CuttableProxy(host, Number(port));
    // A session that outlives the cut: the client comes back to it and sends what it queued.
    cutOff = await testZookeeperClient({ sessionTimeout: 20_000 }, `127.0.0.1:${await proxy.start()}`);
  });

  afterEach(async () => {
    cutOff.close();
    await proxy.stop();
  });

  /** Polls the line until it has `count` nodes. */
  async function untilLineHas(key: string, count: number): Promise<void> {
    while ((await line(key)).length !== count) await sleep(20);
  }

  it('a waiter is out of the line as the connection drops, answered during the outage; its node goes once the client is back', async () => {
    const key = lockKey();
    const holding = (await lock.acquire(key, { waitMs: 0, leaseMs: 0 }))!;
    const waiting = new ZookeeperLock(cutOff, root).acquire(key, { waitMs: 60_000, leaseMs: 0 });
    await untilLineHas(key, 2);

    await proxy.cut();
    // Answered while ZooKeeper is still out of reach: it used to wait for the connection to come back.
    await expect(waiting).rejects.toBeInstanceOf(ZookeeperLockLostError);

    await proxy.restore();
    await untilLineHas(key, 1);
    expect(await holding.release()).toBe(true);
  });

  it('an acquire cut off while its node is being created is answered during the outage; the node is removed once the client is back', async () => {
    const key = lockKey();
    const holding = (await lock.acquire(key, { waitMs: 0, leaseMs: 0 }))!;
    // The create reaches ZooKeeper, its answer is held back: the cut lands before the waiter knows its node.
    proxy.delayReplies(2000);
    const acquiring = new ZookeeperLock(cutOff, root).acquire(key, { waitMs: 60_000, leaseMs: 0 });
    await untilLineHas(key, 2);

    await proxy.cut();
    await expect(acquiring).rejects.toBeInstanceOf(ZookeeperLockLostError);

    proxy.delayReplies(0);
    await proxy.restore();
    await untilLineHas(key, 1);
    expect(await holding.release()).toBe(true);
  });

  it('a release during the outage answers at once that it is not confirmed; the node goes once the client is back', async () => {
    const key = lockKey();
    const holding = (await new ZookeeperLock(cutOff, root).acquire(key, { waitMs: 0, leaseMs: 0 }))!;
    const lostConnection = once(holding.signal, 'abort');

    await proxy.cut();
    await lostConnection;
    await expect(holding.release()).rejects.toBeInstanceOf(ZookeeperReleaseUnconfirmedError);
    expect(await line(key)).toHaveLength(1);

    await proxy.restore();
    await untilLineHas(key, 0);
  });
});
