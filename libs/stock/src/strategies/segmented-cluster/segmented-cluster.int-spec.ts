import { Cluster } from 'ioredis';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { freshProductId, until, useStockTestApp } from '../../testing';
import { clusterSegments, mastersSlots } from './cluster-segments';
import { RedisClusterConnection } from './redis-cluster-connection';

const SCRIPTS = join(__dirname, '../../../../../infra/scripts');
const lab = useStockTestApp();
const closers: (() => unknown)[] = [];
// The same placement as the strategy's: the tags depend only on the run and the cluster's slot map.
const connection = new RedisClusterConnection(process.env.REDIS_CLUSTER_NODES, (close) => closers.push(close));
afterAll(() => Promise.all(closers.map((close) => close())));

/** The master that serves a slot, by its node id. */
async function masterOf(slot: number): Promise<number> {
  const masters = await mastersSlots(connection.redis);
  return masters.findIndex((ranges) => ranges.some(([start, end]) => slot >= start && slot <= end));
}

describe('segmented-cluster (on the three-master cluster ensure-redis-cluster.sh starts)', () => {
  it('puts each segment on one slot — stock, moves and lock together — and the segments on every master', async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: 12, strategy: 'segmented-cluster', segments: 6 });
    const cells = await clusterSegments(connection, lab.keyPrefix).cells(settings);
    const redis = connection.redis;
    expect(await Promise.all(cells.map((cell) => redis.get(cell.stock)))).toEqual(['2', '2', '2', '2', '2', '2']);

    const masters = [];
    for (const cell of cells) {
      const slots = await Promise.all([cell.stock, cell.moves, cell.lock].map(async (key) => Number(await redis.cluster('KEYSLOT', key))));
      expect(new Set(slots).size).toBe(1);
      masters.push(await masterOf(slots[0]));
    }
    // Segment i on master i mod 3: 6 segments, each master serves two.
    expect((await mastersSlots(redis)).length).toBe(3);
    expect(masters).toEqual([0, 1, 2, 0, 1, 2]);
    // As the servers themselves say: ask each master how many keys it holds in each segment's slot.
    const servers = (redis as unknown as Cluster).nodes('master');
    const holders = [];
    for (const cell of cells) {
      const slot = Number(await redis.cluster('KEYSLOT', cell.stock));
      const counts = await Promise.all(servers.map((server) => server.cluster('COUNTKEYSINSLOT', slot)));
      expect(counts.filter((count) => Number(count) > 0)).toHaveLength(1);
      holders.push(counts.findIndex((count) => Number(count) > 0));
    }
    expect(new Set(holders).size).toBe(3);
  });

  it('sells on the cluster, and reconciles by request id from every segment\'s moves', async () => {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: 6, strategy: 'segmented-cluster', segments: 3 });
    const outcomes = [];
    for (let i = 0; i < 7; i++) outcomes.push((await lab.app.placement.place({ productId, quantity: 1, strategy: 'segmented-cluster' })).result.outcome);
    expect(outcomes).toEqual(['sold', 'sold', 'sold', 'sold', 'sold', 'sold', 'sold_out']);
    expect(await lab.app.inventory.inventory(productId)).toMatchObject({
      remaining: 0,
      sold: 6,
      oversold: 0,
      storesAgree: true,
      moves: { unitsTaken: 6, takenTwice: { count: 0 }, takenWithoutOrder: { count: 0 }, orderedWithoutTake: { count: 0 } },
    });
  });

  it('refuses a script over two segments\' keys (CROSSSLOT) and changes nothing', async () => {
    const productId = freshProductId();
    const settings = await lab.app.reset.reset(productId, { stock: 10, strategy: 'segmented-cluster', segments: 2 });
    const [first, second] = await clusterSegments(connection, lab.keyPrefix).cells(settings);
    // Segment 0's stock with segment 1's moves: a wrong tag pairing. ioredis's cluster client refuses it
    // before sending (it routes by slot), and a master sent it straight refuses it too (CROSSSLOT).
    await expect(connection.redis.writeStockV1(first.stock, second.moves, first.orders, first.orders, 0, 5, 'wrong-tag', '', '')).rejects.toThrow(/same slot/);
    const [server] = (connection.redis as unknown as Cluster).nodes('master');
    await expect(server.eval("redis.call('SET', KEYS[1], 0); return redis.call('HSET', KEYS[2], 'wrong-tag', 't5')", 2, first.stock, second.moves)).rejects.toThrow(/CROSSSLOT/);
    expect(await connection.redis.get(first.stock)).toBe('5');
    expect(await connection.redis.hlen(second.moves)).toBe(0);
  });

  it('fails a command once no node of a working cluster answers, instead of holding it until they are back; sells again once they are', async () => {
    // A cluster of this test's own, to kill: the run's shared one serves the other tests.
    const { REDIS_CLUSTER_NODES: _shared, ...env } = process.env;
    const script = (name: string, ...args: string[]) => execFileSync('bash', [join(SCRIPTS, name), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env }).trim();
    const addresses = script('ensure-redis-cluster.sh', 'start', '--owner', String(process.pid));
    try {
      const own = new RedisClusterConnection(addresses, (close) => closers.push(close));
      expect(await own.redis.set('{lab}:probe', '1')).toBe('OK');

      for (const address of addresses.split(',')) script('ensure-redis-nodes.sh', 'stop-node', address);
      // The first command fails on the closed connections, and the client starts reconnecting: the next one
      // goes to its queue of commands waiting for the cluster. Before the client gave up on an unreachable
      // cluster, it waited there for good.
      await expect(own.redis.get('{lab}:probe')).rejects.toThrow();
      await expect(own.redis.get('{lab}:probe')).rejects.toThrow();

      for (const address of addresses.split(',')) script('ensure-redis-nodes.sh', 'start-node', address);
      // The nodes come back with their slots (nodes.conf) and nothing else: no persistence.
      await until(async () => (await own.redis.get('{lab}:probe').then(() => true, () => false)), 'the restarted cluster answers', 20_000);
      expect(await own.redis.set('{lab}:probe', '2')).toBe('OK');
    } finally {
      script('ensure-redis-cluster.sh', 'stop', addresses);
    }
  }, 60_000);
});
