import type { ProductRunSettings } from '@oversell/contracts';
import type Redis from 'ioredis';
import type { StrategyOrderStreams } from '../stock-strategy';
import { defineStockCellScripts, type StockCell } from '../redis/redis-stock';
import { StockKeys } from '../redis/stock-keys';
import { StockMovePages } from '../redis/stock-moves';

/** One segment: its stock key, the moves hash its scripts note takes in, and its lock key. */
export interface SegmentCell extends StockCell {
  readonly lock: string;
}

/** Where a run's segments live, and how to seed, read and audit them all at once. */
export interface SegmentStore {
  /** The connection the segments' scripts and locks run on. */
  readonly redis: Redis;
  /** Where a take appends its order under orderWrite 'stream', when not to the run's one stream on the lab's Redis (a Cluster's segments). */
  readonly orderStreams?: StrategyOrderStreams;
  cells(settings: ProductRunSettings): Promise<SegmentCell[]>;
  /** Each segment's stock, in order; null for a segment not seeded. */
  read(cells: readonly SegmentCell[]): Promise<(string | null)[]>;
  seed(cells: readonly SegmentCell[], units: readonly number[]): Promise<void>;
  moves(cells: readonly SegmentCell[]): StockMovePages;
  /** Deletes the segments' locks, whoever holds them; how many there were. */
  breakLocks(cells: readonly SegmentCell[]): Promise<number>;
}

/**
 * The segments on the lab's one Redis: keys of the product's hash tag, one MGET / MSET over all of
 * them, and one moves hash for the run, whichever segment a request took from.
 */
export function oneRedisSegments(redis: Redis, keyPrefix: string): SegmentStore {
  const scripted = defineStockCellScripts(redis);
  return {
    redis: scripted,
    async cells(settings) {
      const keys = StockKeys.of(keyPrefix, settings);
      return Array.from({ length: settings.segments }, (_, i) => ({ stock: keys.segment(i), lock: keys.segmentLock(i), moves: keys.moves, orders: keys.orders }));
    },
    read: (cells) => scripted.mget(cells.map((cell) => cell.stock)),
    async seed(cells, units) {
      await scripted.mset(Object.fromEntries(cells.map((cell, i) => [cell.stock, units[i]])));
    },
    moves: (cells) => new StockMovePages([{ redis: scripted, key: cells[0].moves }]),
    breakLocks: (cells) => scripted.del(cells.map((cell) => cell.lock)),
  };
}
