import type { Etcd3 } from 'etcd3';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshKeyPrefix, testEtcdClient } from '../testing';
import { EtcdLeaseLostError, EtcdLock } from './etcd-lock';

let client: Etcd3;
let lock: EtcdLock;
const prefix = freshKeyPrefix();
let n = 0;
const lockKey = () => `${prefix}/lock-${++n}`;

beforeAll(() => {
  client = testEtcdClient();
  lock = new EtcdLock(client);
});

afterAll(async () => {
  await client.delete().prefix(prefix);
  client.close();
});

/** The keys in the lock's line, oldest (the holder) first. */
async function line(key: string): Promise<string[]> {
  const { kvs } = await client.getAll().prefix(`${key}/`).sort('Create', 'Ascend').exec();
  return kvs.map((kv) => kv.key.toString());
}

/** Polls until the line is `length` long; polling is how a test sees other processes queue up. */
async function lineOf(key: string, length: number): Promise<string[]> {
  for (;;) {
    const keys = await line(key);
    if (keys.length >= length) return keys;
    await sleep(10);
  }
}

const leaseIdOf = (lineKey: string) => BigInt(`0x${lineKey.slice(lineKey.lastIndexOf('/') + 1)}`).toString();
const leaseIds = async () => (await client.leaseClient.leaseLeases({})).leases.map((lease) => lease.ID);

type Grant = [fencingToken: number, counterRead: number];

/** `processes` OS processes, each with `clients` etcd clients looping `rounds` acquire → counter + 1 → release. */
function contenders(processes: number, key: string, counterKey: string, clients: number, rounds: number): Promise<Grant[]>[] {
  return Array.from({ length: processes }, async () => {
    const child = fork(join(__dirname, 'testing/etcd-contender.ts'), [key, counterKey, String(clients), String(rounds)], {
      execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
      env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../../tsconfig.json') },
    });
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`contender exited (${code}) before reporting`);
    });
    const [message] = (await Promise.race([once(child, 'message'), exited])) as [{ grants: Grant[] }];
    return message.grants;
  });
}

describe('etcd lock', () => {
  it('excludes: 3 processes × 2 clients × 25 read-increment-write rounds on an etcd counter lose no increment', async () => {
    const key = lockKey();
    const counterKey = `${key}-counter`;
    const grants = (await Promise.all(contenders(3, key, counterKey, 2, 25))).flat();
    expect(grants).toHaveLength(150);
    expect(Number(await client.get(counterKey).string())).toBe(150);
    // Every holder read what the one before it wrote: each count was read exactly once.
    expect(grants.map(([, read]) => read).sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(await line(key)).toEqual([]);
  });

  it('is fair: 9 waiters in 3 processes are granted in their arrival (create revision) order', async () => {
    const key = lockKey();
    const counterKey = `${key}-counter`;
    const holder = await lock.acquire(key, { waitMs: 0, leaseMs: 5000 });
    expect(holder).not.toBeNull();
    const reports = contenders(3, key, counterKey, 3, 1);
    await lineOf(key, 10);
    await holder!.release();
    const grants = (await Promise.all(reports)).flat();
    const inGrantOrder = [...grants].sort(([, a], [, b]) => a - b).map(([token]) => token);
    const inArrivalOrder = grants.map(([token]) => token).sort((a, b) => a - b);
    expect(inGrantOrder).toEqual(inArrivalOrder);
    expect(inArrivalOrder[0]).toBeGreaterThan(holder!.fencingToken!);
  });

  it('has each waiter watch only the key just before its own; a waiter leaving the line wakes only the one behind it', async () => {
    const key = lockKey();
    // The real client, with what each watch is created on written down.
    const watcherClient = testEtcdClient();
    const watched: string[] = [];
    const watch = watcherClient.watch.bind(watcherClient);
    watcherClient.watch = () => {
      const builder = watch();
      const [onKey, onPrefix] = [builder.key.bind(builder), builder.prefix.bind(builder)];
      builder.key = (k) => (watched.push(k.toString()), onKey(k));
      builder.prefix = (p) => (watched.push(`prefix ${p.toString()}`), onPrefix(p));
      return builder;
    };
    const watching = async (count: number) => {
      while (watched.length < count) await sleep(5);
    };
    const waiters = new EtcdLock(watcherClient);
    try {
      const holder = (await lock.acquire(key, { waitMs: 0, leaseMs: 5000 }))!;
      const waiting: Promise<unknown>[] = [];
      for (let i = 1; i <= 4; i++) {
        waiting.push(waiters.acquire(key, { waitMs: 30_000, leaseMs: 5000 }));
        await watching(i);
      }
      const keys = await line(key);
      expect(keys).toHaveLength(5);
      expect(watched).toEqual(keys.slice(0, 4));

      // Waiter 2 loses its lease: its key goes, waiter 3 (watching it) wakes and watches waiter 1; nobody else stirs.
      const secondLost = expect(waiting[1]).rejects.toBeInstanceOf(EtcdLeaseLostError);
      await client.leaseClient.leaseRevoke({ ID: leaseIdOf(keys[2]) });
      await watching(5);
      expect(watched[4]).toBe(keys[1]);
      await secondLost;

      await holder.release();
      for (const index of [0, 2, 3]) {
        const holding = (await waiting[index]) as Awaited<ReturnType<EtcdLock['acquire']>>;
        expect(holding!.fencingToken).toBe(Number((await client.get(keys[index + 1]).exec()).kvs[0].create_revision));
        expect(await holding!.release()).toBe(true);
      }
      // Each release woke exactly the next waiter, who found itself first without watching again.
      expect(watched).toHaveLength(5);
    } finally {
      watcherClient.close();
    }
  });

  it('keeps the lease alive while held: the key outlives three TTLs', async () => {
    const key = lockKey();
    const holding = (await lock.acquire(key, { waitMs: 0, leaseMs: 1000 }))!;
    const [own] = await line(key);
    const { TTL } = await client.leaseClient.leaseTimeToLive({ ID: leaseIdOf(own) });
    await sleep(3 * Number(TTL) * 1000 + 200);
    expect(await line(key)).toEqual([own]);
    expect(holding.signal.aborted).toBe(false);
    expect(await holding.release()).toBe(true);
    expect(await line(key)).toEqual([]);
    expect(await leaseIds()).not.toContain(leaseIdOf(own));
  });

  it('raises the holding signal when its lease is revoked; release then says it no longer held the lock', async () => {
    const key = lockKey();
    const holding = (await lock.acquire(key, { waitMs: 0, leaseMs: 1000 }))!;
    const [own] = await line(key);
    const aborted = once(holding.signal, 'abort');
    expect(holding.signal.aborted).toBe(false);
    await client.leaseClient.leaseRevoke({ ID: leaseIdOf(own) });
    await aborted;
    expect(await line(key)).toEqual([]);
    expect(await holding.release()).toBe(false);
    // The lock is free for the next caller at once.
    const next = await lock.acquire(key, { waitMs: 0, leaseMs: 1000 });
    expect(next).not.toBeNull();
    await next!.release();
  });

  it('times out with null after the wait, and leaves no key and no lease behind (waitMs 0: one attempt)', async () => {
    const key = lockKey();
    const holding = (await lock.acquire(key, { waitMs: 0, leaseMs: 5000 }))!;
    const leasesBefore = await leaseIds();
    const started = Date.now();
    expect(await lock.acquire(key, { waitMs: 300, leaseMs: 5000 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await lock.acquire(key, { waitMs: 0, leaseMs: 5000 })).toBeNull();
    expect(await line(key)).toHaveLength(1);
    expect((await leaseIds()).sort()).toEqual(leasesBefore.sort());
    expect(await holding.release()).toBe(true);
  });
});
