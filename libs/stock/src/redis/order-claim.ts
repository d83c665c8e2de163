import { DuplicateIdempotencyKeyError } from '../errors';
import type { DeductContext } from '../stock-strategy';
import type { RunStockKeys } from './stock-keys';

/** What a take script answers when another request holds the streamed order's idempotency key (append-order.lua). */
export const CLAIMED = 'claimed';

/**
 * The claim a take script sets with its streamed order: the key and the seconds to keep it, or, when the
 * order claims nothing, seconds "" and a key of the cell's own slot (a script's keys share one slot on a cluster).
 */
export function claimOf(cell: Pick<RunStockKeys, 'orders'>, take: Pick<DeductContext, 'orderClaim'>): { key: string; seconds: number | '' } {
  return take.orderClaim ? { key: take.orderClaim.key, seconds: take.orderClaim.seconds } : { key: cell.orders, seconds: '' };
}

/** The refusal of an order whose idempotency key another request claimed: the placement answers with that request's order. */
export function claimedByAnother(take: Pick<DeductContext, 'orderClaim'>): DuplicateIdempotencyKeyError {
  return new DuplicateIdempotencyKeyError(take.orderClaim?.idempotencyKey ?? '');
}
