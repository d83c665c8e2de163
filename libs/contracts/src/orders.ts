import type { StrategyName } from './strategies';

/** Largest quantity one order may ask for; larger is a 400, not a deduction. */
export const MAX_ORDER_QUANTITY = 1000;
/** Largest product id (MySQL's signed INT); an order or a run for a larger one is a 400. */
export const MAX_PRODUCT_ID = 2_147_483_647;
/** Largest stock a product may be reset to. */
export const MAX_STOCK = 10_000_000;

export interface CreateOrderRequest {
  productId: number;
  quantity: number;
  strategy: StrategyName;
  idempotencyKey?: string;
}

export interface OrderView {
  id: number;
  productId: number;
  quantity: number;
  strategy: StrategyName;
  runId: string;
  idempotencyKey: string | null;
  createdAt: string;
  /** True when an order with the same idempotency key already existed and was returned again. */
  replayed: boolean;
}

/**
 * The answer (202) to an order sold under orderWrite 'queued': the stock is taken and the order is a
 * queued job (id = requestId), not yet a MySQL row, so it has no order id yet. Its row appears when an
 * order writer has written its batch; until then it counts in the queue's depth.
 */
export interface QueuedOrderView extends Omit<OrderView, 'id'> {
  id: null;
  /** The order's job id in the queue, and its row's request_id once written. */
  requestId: string;
  queued: true;
}

/** A sold order as answered: written (201), or queued to be written (202). */
export type PlacedOrder = OrderView | QueuedOrderView;

/**
 * What one deduction attempt ended as. Shared by HTTP responses, metrics and run figures. 'fenced': the
 * store refused the stock write of a holder whose fencing token a newer holder's had passed; nothing was taken.
 * 'replayed' (figures and metrics only): answered 200 with the earlier order of its idempotency key,
 * nothing taken, so a double-click's copies are not counted as sales. Results stored before it existed
 * have no 'replayed' count; their replays are in 'sold'.
 */
export const ORDER_OUTCOMES = ['sold', 'replayed', 'sold_out', 'lock_timeout', 'conflict', 'lock_lost', 'fenced', 'error'] as const;
export type OrderOutcome = (typeof ORDER_OUTCOMES)[number];
