import type Redis from 'ioredis';
import { StockNotSeededError } from '../errors';
import { definitelyNotWritten } from '../store-errors';
import type { DeductContext, DeductResult } from '../stock-strategy';

/**
 * The read-check-write on a Redis stock key that the lock strategies guard (and no-lock does not):
 * GET, compare, business time, SET, record the order. Safe only while the caller holds a valid lock.
 */
export async function readCheckWrite(redis: Redis, stockKey: string, context: DeductContext, lockLost?: AbortSignal): Promise<DeductResult> {
  const value = await redis.get(stockKey);
  if (value === null) throw new StockNotSeededError(context.settings.productId);
  const stock = Number(value);
  if (stock < context.quantity) return { outcome: 'sold_out' };
  await context.faults.at('stock-read');
  // The watchdog tells its holder the lock is gone; writing now could overwrite a newer holder's stock.
  if (lockLost?.aborted) return { outcome: 'lock_lost' };
  await redis.set(stockKey, stock - context.quantity);
  await context.faults.at('stock-written');
  return recordOrGiveBack(redis, stockKey, context);
}

/**
 * Records the order for stock already taken from `stockKey`. If the order cannot be written the units
 * go back — but only once it is certain the order is not there: an INSERT whose connection died after
 * the commit did land, and giving its units back would sell them twice. When MySQL cannot say, the
 * units stay taken: reconciliation reports them as lost, and nothing is oversold.
 */
export async function recordOrGiveBack(redis: Redis, stockKey: string, context: DeductContext): Promise<DeductResult> {
  let order;
  try {
    order = await context.record();
  } catch (error) {
    const landed = definitelyNotWritten(error) ? null : await context.recorded().catch(() => undefined);
    if (landed) order = landed;
    else {
      if (landed === null) await redis.incrby(stockKey, context.quantity);
      throw error;
    }
  }
  await context.faults.at('order-recorded');
  return { outcome: 'sold', order };
}
