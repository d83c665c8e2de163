import type Redis from 'ioredis';
import { connectRedisNodes, uptimeSeconds } from '../redis-nodes';
import { freshKeyPrefix, useRedisNodeGroup } from '../testing';
import { redlock } from './redlock.lock';
import { redlockDelayedRestart } from './redlock-delayed-restart.lock';

/**
 * Kleppmann's RedLock restart, on five nodes of this file's own: A holds on nodes 1–3 (a stranger's
 * minority grant keeps it off 4 and 5), node 3 restarts without its data. Plain redlock then lets B win
 * 3, 4, 5 beside A (redlock.int-spec's PITFALL); with delayed restarts node 3 sits out one lease and B
 * is refused, until node 3 has been up a lease and A's grant is gone.
 */
/** Long enough that A's grant outlives node 3's restart, which a loaded machine can stretch to seconds. */
const LEASE_MS = 5000;
const prefix = freshKeyPrefix();
const fixture = useRedisNodeGroup();

const uptimeSec = async (node: Redis) => uptimeSeconds(await node.info('server'))!;
const valuesOn = (key: string) => Promise.all(fixture.nodes.map((node) => node.get(key)));
const nextReady = (node: Redis) => new Promise<void>((resolve) => node.once('ready', () => resolve()));

/** Resolves once every node has been up for `seconds` (a second more than a lease: the client learns a start up to a second late). */
async function upFor(seconds: number): Promise<void> {
  while (Math.min(...(await Promise.all(fixture.nodes.map(uptimeSec)))) < seconds) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A holds on nodes 1–3 only: nodes 4 and 5 carry a stranger's grant while A acquires, which then expires. */
async function holdOnFirstThree(key: string, lock: ReturnType<typeof redlock>) {
  const { nodes } = fixture;
  await Promise.all(nodes.slice(3).map((node) => node.set(key, 'stranger', 'PX', 30_000)));
  const a = (await lock.acquire(key, { waitMs: 0, leaseMs: LEASE_MS }))!;
  expect(await valuesOn(key)).toEqual([a.token, a.token, a.token, 'stranger', 'stranger']);
  await Promise.all(nodes.slice(3).map((node) => node.del(key)));
  return a;
}

/** Node 3 restarted without its data; returns once this file's client is connected to it again. */
async function restartThirdNodeEmpty(): Promise<void> {
  const { group, nodes } = fixture;
  const ready = nextReady(nodes[2]);
  group.stopNode(2);
  group.startNode(2, { empty: true });
  await ready;
}

it('grants nothing on nodes up for less than the lease: a group that just started has no voter yet', async () => {
  const { group, nodes } = fixture;
  const fresh = await connectRedisNodes(group.addresses, 2000);
  try {
    const key = `${prefix}:fresh`;
    // The nodes started in beforeAll, well under a minute ago: none may vote for a 60 s lease.
    expect(Math.max(...(await Promise.all(nodes.map(uptimeSec))))).toBeLessThan(60);
    await expect(redlockDelayedRestart(fresh).acquire(key, { waitMs: 0, leaseMs: 60_000 })).rejects.toMatchObject({ code: 'lock_unavailable' });
    expect(await valuesOn(key)).toEqual([null, null, null, null, null]);
  } finally {
    fresh.forEach((node) => node.disconnect());
  }
});

it('a node restarted without its data sits out one lease: no second majority beside the holder, then it votes again', async () => {
  const { nodes } = fixture;
  await upFor(LEASE_MS / 1000 + 1);
  const key = `${prefix}:restart`;
  const lock = redlockDelayedRestart(nodes);
  const a = await holdOnFirstThree(key, lock);

  await restartThirdNodeEmpty();
  expect(await valuesOn(key)).toEqual([a.token, a.token, null, null, null]);
  // Plain redlock on the same nodes now forms a second majority (3, 4, 5): the pitfall this closes.
  const plain = redlock(nodes);
  const intruder = await plain.acquire(key, { waitMs: 0, leaseMs: LEASE_MS });
  expect(await valuesOn(key)).toEqual([a.token, a.token, intruder!.token, intruder!.token, intruder!.token]);
  await intruder!.release();

  // With delayed restarts node 3 is not asked: nodes 4 and 5 are two votes, no majority.
  expect(await lock.acquire(key, { waitMs: 0, leaseMs: LEASE_MS })).toBeNull();
  expect(await valuesOn(key)).toEqual([a.token, a.token, null, null, null]);

  // Once A's grant has expired, B gets the lock; once node 3 has been up a lease, it votes again.
  const b = await lock.acquire(key, { waitMs: 3 * LEASE_MS, leaseMs: LEASE_MS });
  expect(b).not.toBeNull();
  expect(await b!.release()).toBe(true);
  await upFor(LEASE_MS / 1000 + 1);
  const c = (await lock.acquire(key, { waitMs: 0, leaseMs: LEASE_MS }))!;
  expect(await valuesOn(key)).toEqual([c.token, c.token, c.token, c.token, c.token]);
  expect(await c.release()).toBe(true);
});
