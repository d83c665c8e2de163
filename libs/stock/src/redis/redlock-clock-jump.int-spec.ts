import { connectRedisNodes } from '@oversell/locks';
import { freshKeyPrefix, RedisNodeGroup } from '@oversell/locks/testing';
import type Redis from 'ioredis';
import { RedlockNodeRestart, STRANGER } from './redlock-node-restart';

/**
 * The clock-jump fault's premise, checked on the lab's own nodes: the first node runs under libfaketime,
 * and Redis 7 expires keys by its wall clock (mstime(), from gettimeofday, which libfaketime fakes), both
 * when a key is read and in the active expire cycle. Were the fake clock not to reach the node's expiry,
 * the preset would show nothing, and these would fail.
 */
describe('a clock jump on the RedLock node under libfaketime', () => {
  let group: RedisNodeGroup;
  let nodes: Redis[];
  beforeAll(async () => {
    group = RedisNodeGroup.start();
    nodes = await connectRedisNodes(group.addresses, 2000);
  });
  afterAll(() => {
    nodes?.forEach((node) => node.disconnect());
    group?.stop();
  });

  const jump = (key: string, offsetMs: number) => new RedlockNodeRestart(group.addresses.join(',')).jumpAClock(key, offsetMs);

  it("expires a 10 s key on access right after a 20 s jump, on that node only, and moves its TIME", async () => {
    const key = `${freshKeyPrefix()}lock`;
    await Promise.all(nodes.map((node) => node.set(key, 'holder', 'PX', 10_000)));
    // The active cycle off: what expires the key now is its read.
    await nodes[0].call('DEBUG', 'SET-ACTIVE-EXPIRE', '0');
    try {
      const [before] = await nodes[0].time();
      await jump(key, 20_000);
      const [after] = await nodes[0].time();
      expect(Number(after) - Number(before)).toBeGreaterThanOrEqual(20);
      expect(await nodes[0].dbsize()).toBeGreaterThanOrEqual(1); // still in the keyspace, unread
      expect(await nodes[0].get(key)).toBeNull();
      expect(await Promise.all(nodes.slice(1).map((node) => node.get(key)))).toEqual(['holder', 'holder', 'holder', 'holder']);
    } finally {
      await nodes[0].call('DEBUG', 'SET-ACTIVE-EXPIRE', '1');
    }
  });

  it('expires it unread, by the active expire cycle', async () => {
    const key = `${freshKeyPrefix()}lock`;
    await nodes[0].set(key, 'holder', 'PX', 10_000);
    const expiredBefore = Number(/expired_keys:(\d+)/.exec(await nodes[0].info('stats'))![1]);
    await jump(key, 20_000);
    // Never read: the node's expired_keys counts it once its cycle (10 times a second) has taken it.
    for (let i = 0; Number(/expired_keys:(\d+)/.exec(await nodes[0].info('stats'))![1]) === expiredBefore; i++) {
      if (i > 50) throw new Error('the active expire cycle did not take the key within 5 s of the jump');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await nodes[0].exists(key)).toBe(0);
  });

  it("ends the stranger's grants, and refuses a node that holds the lock for nobody while others do", async () => {
    const key = `${freshKeyPrefix()}lock`;
    await Promise.all(nodes.slice(-2).map((node) => node.set(key, STRANGER, 'PX', 60_000)));
    await Promise.all(nodes.slice(0, 3).map((node) => node.set(key, 'holder', 'PX', 60_000)));
    await jump(key, 1000);
    expect(await Promise.all(nodes.map((node) => node.get(key)))).toEqual(['holder', 'holder', 'holder', null, null]);
    await nodes[0].del(key);
    await expect(jump(key, 1000)).rejects.toThrow(/holds .* for nobody/);
  });
});
