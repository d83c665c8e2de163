import type { ProductRunSettings } from '@oversell/contracts';
import type Redis from 'ioredis';
import { StockMovePages } from '../../redis/stock-moves';
import type { SegmentCell, SegmentStore } from '../../compose/segment-store';
import type { RedisClusterConnection } from './redis-cluster-connection';

/** How many runs' segment keys a process remembers (each run asks the cluster for its tags once). */
const RUNS_REMEMBERED = 64;

/**
 * The segments on a Redis Cluster. Each segment's keys share one hash tag, {<prefix>:p<product>:<run>:seg<i>.<n>},
 * so its stock, its moves hash and its lock are in one slot and its scripts may touch them together.
 * n is the first number whose slot belongs to master i mod M (masters by their first slot), so the
 * segments spread over every master instead of where the hash happens to put them. Nothing here spans
 * two slots: the segments are read, seeded and audited one key per command, their order streams read one
 * stream per command.
 */
export function clusterSegments(connection: RedisClusterConnection, keyPrefix: string): SegmentStore {
  const runs = new Map<string, Promise<SegmentCell[]>>();
  const store: SegmentStore = {
    get redis() {
      return connection.redis;
    },
    // One stream per segment, under its tag: the segment's write script appends to it. The writers read
    // each on its own (a command may not span slots).
    orderStreams: {
      configured: connection.configured,
      host: { name: 'the Redis Cluster', get redis() { return connection.redis; }, readsTogether: false },
      async of(settings) {
        return (await store.cells(settings)).map((cell) => cell.orders);
      },
    },
    cells(settings) {
      const run = `${settings.productId}:${settings.runId}:${settings.segments}`;
      let cells = runs.get(run);
      if (!cells) {
        cells = placeSegments(connection.redis, keyPrefix, settings);
        cells.catch(() => runs.delete(run));
        runs.set(run, cells);
        if (runs.size > RUNS_REMEMBERED) runs.delete(runs.keys().next().value as string);
      }
      return cells;
    },
    read: (cells) => Promise.all(cells.map((cell) => connection.redis.get(cell.stock))),
    async seed(cells, units) {
      await Promise.all(cells.map((cell, i) => connection.redis.set(cell.stock, units[i])));
    },
    moves: (cells) => new StockMovePages(cells.map((cell) => ({ redis: connection.redis, key: cell.moves }))),
    async breakLocks(cells) {
      const deleted = await Promise.all(cells.map((cell) => connection.redis.del(cell.lock)));
      return deleted.reduce((sum, n) => sum + n, 0);
    },
  };
  return store;
}

/** The masters' slot ranges, as [first slot, last slot] lists, masters in the order of their first slot. */
export async function mastersSlots(redis: Redis): Promise<[number, number][][]> {
  const ranges = await redis.cluster('SLOTS');
  const byMaster = new Map<string, [number, number][]>();
  // Each range is [first, last, master, ...replicas]; the master's third field is its node id.
  for (const [start, end, master] of [...ranges].sort((a, b) => a[0] - b[0])) byMaster.set(master[2], [...(byMaster.get(master[2]) ?? []), [start, end]]);
  return [...byMaster.values()];
}

async function placeSegments(redis: Redis, keyPrefix: string, settings: Pick<ProductRunSettings, 'productId' | 'runId' | 'segments'>): Promise<SegmentCell[]> {
  const masters = await mastersSlots(redis);
  return Promise.all(
    Array.from({ length: settings.segments }, async (_, i) => {
      const ranges = masters[i % masters.length];
      for (let n = 0; ; n++) {
        const tag = `{${keyPrefix}:p${settings.productId}:${settings.runId}:seg${i}.${n}}`;
        const slot = Number(await redis.cluster('KEYSLOT', tag));
        if (ranges.some(([start, end]) => slot >= start && slot <= end)) return { stock: `${tag}:stock`, moves: `${tag}:moves`, orders: `${tag}:orders`, lock: `${tag}:lock` };
      }
    }),
  );
}
