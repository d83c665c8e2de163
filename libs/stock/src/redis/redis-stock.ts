import { knownLost, loadLuaScript, useScripts, type LockHolding } from '@oversell/locks';
import type { default as Redis, Result } from 'ioredis';
import { StockNotSeededError } from '../errors';
import { definitelyNotWritten } from '../store-errors';
import type { DeductContext, DeductResult } from '../stock-strategy';
import { FENCED, FENCED_STOCK_SCRIPTS, fencedAccess, plainAccess, STOCK_MISSING, WRITE_STOCK } from './fenced-stock';
import { claimedByAnother } from './order-claim';
import type { RunStockKeys } from './stock-keys';

export const GIVE_BACK = loadLuaScript(__dirname, 'give-back-2.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    giveBackV1(stockKey: string, movesKey: string, units: number, requestId: string): Result<number, Context>;
  }
}

/**
 * Defines the scripts a section writes a stock cell with on the connection, at start-up. Defined lazily
 * (at a first order), a script lands on a connection whose auto-pipeline of the tick is already open
 * without it: ioredis then fails the command ("pipeline[functionName] is not a function") and can throw
 * "results[i] is not iterable" out of its callbacks, killing the instance (seen in a soak run).
 */
export function defineStockCellScripts(redis: Redis): Redis {
  return useScripts(redis, [WRITE_STOCK, ...FENCED_STOCK_SCRIPTS, GIVE_BACK]);
}

/** A stock key (the run's, or one segment of it) and the run's record of stock moves by request. */
export type StockCell = Pick<RunStockKeys, 'stock' | 'moves' | 'orders'>;

/**
 * The read-check-write on a Redis stock key that the lock strategies guard (and no-lock does not):
 * GET, compare, business time, SET, record the order. Safe only while the caller holds a valid lock —
 * or, for a holding with a fencing token, fenced: the store itself refuses the holder once a newer
 * holder has reached the stock (outcome fenced, nothing taken).
 */
export async function readCheckWrite(redis: Redis, cell: StockCell, context: DeductContext, holding?: Pick<LockHolding, 'signal' | 'validUntil' | 'fencingToken'>): Promise<DeductResult> {
  const access = holding?.fencingToken === undefined ? plainAccess(redis, cell) : fencedAccess(redis, cell, holding.fencingToken);
  const value = await access.read();
  if (value === FENCED) return { outcome: 'fenced' };
  if (value === null) throw new StockNotSeededError(context.settings.productId);
  const stock = Number(value);
  if (stock < context.quantity) return { outcome: 'sold_out' };
  const read = context.faults.at('stock-read', stock);
  if (read) await read;
  // A lock that knows it is gone (a failed renewal, a validity past) must not write: it could overwrite a newer holder's stock.
  if (holding && knownLost(holding)) {
    context.faults.note({ target: 'stock', action: 'SET', note: 'lock-lost' });
    return { outcome: 'lock_lost' };
  }
  // A whole value, not a decrement: sent again after a lost reply it writes the same value.
  const written = await access.write(stock - context.quantity, context);
  if (written === 'fenced') {
    context.faults.note({ target: 'stock', action: 'SET', value: stock - context.quantity, note: 'fenced' });
    return { outcome: 'fenced' };
  }
  // Gone since the read (Redis restarted): the value read is not written back as stock.
  if (written === 'missing') throw new StockNotSeededError(context.settings.productId);
  if (written === 'claimed') throw claimedByAnother(context);
  const passed = context.faults.at('stock-written', stock - context.quantity);
  if (passed) await passed;
  return recordOrGiveBack(redis, cell, context);
}

/**
 * Records the order for stock already taken from `stockKey`. If the order cannot be written the units
 * go back — but only once it is certain the order is not there: an INSERT whose connection died after
 * the commit did land, and giving its units back would sell them twice. When MySQL cannot say, the
 * units stay taken and are settled once it can (context.settleLater); nothing is oversold.
 */
export async function recordOrGiveBack(redis: Redis, cell: StockCell, context: DeductContext): Promise<DeductResult> {
  let order;
  try {
    order = await context.record();
  } catch (error) {
    const landed = definitelyNotWritten(error) ? null : await context.recorded().catch(() => undefined);
    if (landed) order = landed;
    else {
      if (landed === null) {
        await giveBack(redis, cell, context);
        // Best effort, and never in place of the write's own error: a claim not let go only expires later.
        await context.abandoned?.().catch(() => undefined);
      } else await context.settleLater?.(() => giveBack(redis, cell, context)).catch(() => undefined);
      throw error;
    }
  }
  const recorded = context.faults.at('order-recorded');
  if (recorded) await recorded;
  return { outcome: 'sold', order };
}

/**
 * Puts back the units this request took, at most once however often the command is sent. False when the
 * stock key is gone (the store lost the run): nothing is put back, and no key is created with them.
 */
export async function giveBack(redis: Redis, cell: StockCell, context: Pick<DeductContext, 'requestId' | 'quantity'>): Promise<boolean> {
  return (await useScripts(redis, [GIVE_BACK]).giveBackV1(cell.stock, cell.moves, context.quantity, context.requestId)) !== STOCK_MISSING;
}
