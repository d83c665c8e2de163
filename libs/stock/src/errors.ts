import type { StrategyName } from '@oversell/contracts';
import { LOCK_SERVICES, STRATEGY_NAMES, type LockService } from '@oversell/contracts';
import type { LockUnavailableError } from '@oversell/locks';

/** Base of the errors the HTTP layer turns into a clear 4xx/5xx instead of a 500. */
export abstract class StockError extends Error {}

export class UnknownStrategyError extends StockError {
  constructor(readonly strategy: string) {
    super(`unknown strategy "${strategy}"; valid strategies: ${STRATEGY_NAMES.join(', ')}`);
  }
}

export class ProductNotFoundError extends StockError {
  constructor(readonly productId: number) {
    super(`product ${productId} does not exist; reset it first with POST /api/products/${productId}/reset`);
  }
}

export class StrategyMismatchError extends StockError {
  constructor(
    readonly productId: number,
    readonly resetFor: StrategyName,
    readonly asked: StrategyName,
  ) {
    super(`product ${productId} was reset for strategy "${resetFor}", not "${asked}"; each strategy keeps its own stock store`);
  }
}

/** The store holds no stock for the product's run, and the run was never seeded there (a reset that did not finish): reset it. */
export class StockNotSeededError extends StockError {
  constructor(readonly productId: number) {
    super(`no stock is seeded for product ${productId} in its strategy's store; reset the product`);
  }
}

/**
 * The run was seeded (MySQL says so) but its store holds nothing: Redis lost its keys (a restart
 * without persistence, a flush). What was left and what was taken is gone with them: reset the product.
 */
export class StockStoreLostError extends StockError {
  constructor(
    readonly productId: number,
    readonly runId: string,
  ) {
    super(`the stock store of product ${productId} (run ${runId}) lost its keys although the run was seeded (Redis restarted or was flushed); reset the product`);
  }
}

/** Redis, MySQL or a lock service did not answer; nothing was taken (or what was taken has been given back). */
export class StoreUnavailableError extends StockError {
  constructor(
    readonly store: 'redis' | 'mysql' | LockService,
    cause: unknown,
  ) {
    super(`${store} is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * The strategy's lock is spread over several servers (RedLock's nodes) and fewer than a majority of them
 * answered: the lock could not be decided either way (not busy: unavailable), so nothing was taken.
 */
export class NoLockMajorityError extends StockError {
  constructor(
    readonly service: LockService,
    cause: LockUnavailableError,
  ) {
    super(`${LOCK_SERVICES[service].title}: ${cause.message}; nothing was taken`, { cause });
  }
}

/** The strategy's lock lives on a lock service (etcd, …) this process was not told the address of. */
export class LockServiceMissingError extends StockError {
  constructor(readonly service: LockService) {
    super(`this strategy locks on ${LOCK_SERVICES[service].title}, and ${LOCK_SERVICES[service].env} is not set: npm run demo starts it, or set ${LOCK_SERVICES[service].env}`);
  }
}

/** orderWrite 'stream' asked of a strategy whose take is not one script that can append its order. */
export class OrderWriteUnsupportedError extends StockError {
  constructor(
    readonly strategy: StrategyName,
    readonly orderWrite: string,
  ) {
    super(`strategy "${strategy}" cannot write its orders as "${orderWrite}": only the Redis strategies whose take is one script on one Redis append the order in it; use sync or queued`);
  }
}

/** Another order already used this idempotency key; the first order is the answer. */
export class DuplicateIdempotencyKeyError extends StockError {
  constructor(readonly idempotencyKey: string) {
    super(`idempotency key "${idempotencyKey}" was already used`);
  }
}

/** An idempotency key already used for a different order (another product, quantity or strategy). */
export class IdempotencyKeyReusedError extends StockError {
  constructor(
    readonly idempotencyKey: string,
    /** The first order's id, or its request id while it is queued (orderWrite 'queued'). */
    readonly orderId: number | string,
  ) {
    super(`idempotency key "${idempotencyKey}" was already used for order ${orderId}, with other details; use a new key for a new order`);
  }
}
