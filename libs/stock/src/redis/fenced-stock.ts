import { loadLuaScript, useScripts } from '@oversell/locks';
import type { default as Redis, Result } from 'ioredis';
import type { OrderClaim } from '../stock-strategy';
import { CLAIMED, claimOf } from './order-claim';
import type { RunStockKeys } from './stock-keys';

/** The stock key a section reads and writes (the run's, or one segment of it), and the run's stock moves. */
type StockCell = Pick<RunStockKeys, 'stock' | 'moves' | 'orders'>;

/** Who takes, and how much: the write notes it in the stock moves (and appends its order under orderWrite 'stream'). */
export interface StockTake {
  requestId: string;
  quantity: number;
  /** The order appended to the cell's order stream with the take (DeductContext.orderIntent). */
  orderIntent?: string;
  /** The idempotency key's claim set with a streamed order (DeductContext.orderClaim). */
  orderClaim?: OrderClaim;
}

export const WRITE_STOCK = loadLuaScript(__dirname, 'write-stock-4.lua');
export const FENCED_STOCK_SCRIPTS = [loadLuaScript(__dirname, 'fenced-read-stock-2.lua'), loadLuaScript(__dirname, 'fenced-write-stock-5.lua')] as const;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    fencedReadStockV1(stockKey: string, fenceKey: string, fencingToken: number): Result<[verdict: 'fenced'] | [verdict: 'ok', stock?: string], Context>;
    fencedWriteStockV1(
      stockKey: string,
      fenceKey: string,
      movesKey: string,
      ordersKey: string,
      claimKey: string,
      value: number,
      fencingToken: number,
      units: number,
      requestId: string,
      order: string,
      claimSeconds: number | '',
    ): Result<number | typeof CLAIMED, Context>;
    writeStockV1(
      stockKey: string,
      movesKey: string,
      ordersKey: string,
      claimKey: string,
      value: number,
      units: number,
      requestId: string,
      order: string,
      claimSeconds: number | '',
    ): Result<number | typeof CLAIMED, Context>;
  }
}

/** A refusal of the store: a holder with a higher fencing token has reached this stock. */
export const FENCED = Symbol('fenced');

/** What the stock scripts answer for a stock key that does not exist (never seeded, or lost). */
export const STOCK_MISSING = -2;

/**
 * How a write ended: written, refused by a higher fencing token, not made because the key is gone, or
 * refused because another request holds the streamed order's idempotency key.
 */
export type StockWrite = 'written' | 'fenced' | 'missing' | 'claimed';

/** How a lock's critical section reads and writes one stock key. */
export interface StockCellAccess {
  /** The stock as stored (null: not seeded), or FENCED. */
  read(): Promise<string | null | typeof FENCED>;
  /** Written (and the take noted in the stock moves), refused (a higher fencing token, or another request's claim), or missing (nothing written). */
  write(value: number, take: StockTake): Promise<StockWrite>;
}

/** The highest fencing token a stock key has seen, beside it (same hash tag, so one slot). */
export function fenceOf(stockKey: string): string {
  return `${stockKey}:fence`;
}

/** GET and SET (noting the take): the lock is all that keeps holders apart. */
export function plainAccess(redis: Redis, cell: StockCell): StockCellAccess {
  const scripts = useScripts(redis, [WRITE_STOCK]);
  return {
    read: () => redis.get(cell.stock),
    write: async (value, take) => {
      const claim = claimOf(cell, take);
      const written = await scripts.writeStockV1(cell.stock, cell.moves, cell.orders, claim.key, value, take.quantity, take.requestId, take.orderIntent ?? '', claim.seconds);
      return written === CLAIMED ? 'claimed' : written === STOCK_MISSING ? 'missing' : 'written';
    },
  };
}

/**
 * The stock key as a fenced store (Kleppmann): the read registers the holder's token, and the read
 * and the write both refuse a token lower than the highest the stock has seen. A holder that lost
 * its lock (a pause past the lease) and a newer holder then touched the stock writes nothing.
 */
export function fencedAccess(redis: Redis, cell: StockCell, fencingToken: number): StockCellAccess {
  const scripts = useScripts(redis, FENCED_STOCK_SCRIPTS);
  const fence = fenceOf(cell.stock);
  return {
    read: async () => {
      const [verdict, stock] = await scripts.fencedReadStockV1(cell.stock, fence, fencingToken);
      return verdict === 'fenced' ? FENCED : (stock ?? null);
    },
    write: async (value, take) => {
      const claim = claimOf(cell, take);
      const written = await scripts.fencedWriteStockV1(cell.stock, fence, cell.moves, cell.orders, claim.key, value, fencingToken, take.quantity, take.requestId, take.orderIntent ?? '', claim.seconds);
      return written === 1 ? 'written' : written === CLAIMED ? 'claimed' : written === STOCK_MISSING ? 'missing' : 'fenced';
    },
  };
}
