import type Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockUnavailableError } from '../errors';
import { freshKeyPrefix, useRedisNodeGroup } from '../testing';
import { redlockContention } from '../testing/redlock-contention';
import { redlockLib } from './redlock-lib.lock';

const prefix = freshKeyPrefix();

it('excludes: 3 processes × 2 clients × 10 read-increment-write rounds on the shared nodes lose no increment', async () => {
  const { reads, counter } = await redlockContention('redlock-lib', 3, 2, 10);
  expect(counter).toBe(60);
  expect(reads.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
});

describe('redlock-lib with nodes down', () => {
  const fixture = useRedisNodeGroup();

  /** Kills nodes `indexes` and returns once their clients have seen the connections go. */
  async function crash(...indexes: number[]): Promise<void> {
    for (const index of indexes) {
      const closed = new Promise((resolve) => fixture.nodes[index].once('close', resolve));
      fixture.group.stopNode(index);
      await closed;
    }
  }

  it('2 of 5 nodes down: still grants on the 3 left, and releases them', async () => {
    const key = `${prefix}:two-down`;
    const { nodes } = fixture;
    await crash(3, 4);
    const holding = await redlockLib(nodes).acquire(key, { waitMs: 0, leaseMs: 10_000 });
    expect(holding).not.toBeNull();
    expect(await Promise.all(nodes.slice(0, 3).map((node) => node.get(key)))).toEqual(Array(3).fill(holding!.token));
    expect(await holding!.release()).toBe(true);
    expect(await Promise.all(nodes.slice(0, 3).map((node) => node.exists(key)))).toEqual([0, 0, 0]);
  });

  it('3 of 5 nodes down: refuses with lock_unavailable, not as if the lock were busy', async () => {
    // Nodes 4 and 5 are still down from the test before.
    await crash(2);
    const refused = redlockLib(fixture.nodes).acquire(`${prefix}:three-down`, { waitMs: 0, leaseMs: 10_000 });
    await expect(refused).rejects.toBeInstanceOf(LockUnavailableError);
    await expect(refused).rejects.toMatchObject({ code: 'lock_unavailable', reachable: 2, needed: 3 });
  });
});

describe('redlock-lib releasing a holding whose keys have expired', () => {
  const fixture = useRedisNodeGroup();

  /** The scripts each node ran so far: the library sends its release as one (EVALSHA, or EVAL once). */
  const scriptCalls = (nodes: Redis[]) =>
    Promise.all(nodes.map(async (node) => [...(await node.info('commandstats')).matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0)));

  it("answers false after one release round, not after the library's ten retries", async () => {
    const key = `${prefix}:expired`;
    const { nodes } = fixture;
    const holding = await redlockLib(nodes).acquire(key, { waitMs: 0, leaseMs: 50 });
    expect(holding).not.toBeNull();
    // The state the test needs, observed rather than slept for: every node has expired the key.
    while ((await Promise.all(nodes.map((node) => node.exists(key)))).some((exists) => exists === 1)) await sleep(5);
    const before = await scriptCalls(nodes);

    expect(await holding!.release()).toBe(false);
    // One release script per node; with the library's defaults, 11 rounds of them.
    expect(await scriptCalls(nodes)).toEqual(before.map((calls) => calls + 1));
  });
});
