import type { Localized, StrategyName } from '@oversell/contracts';
import { LOCK_SERVICES, STRATEGY_NAMES, type LockService } from '@oversell/contracts';
import type { LockUnavailableError } from '@oversell/locks';

/** Base of the errors the HTTP layer turns into a clear 4xx/5xx instead of a 500. */
export abstract class StockError extends Error {
  /** The message in every language (the Error's own is the English), answered in the client's. */
  constructor(
    readonly texts: Localized,
    options?: ErrorOptions,
  ) {
    super(texts.en, options);
  }
}

export class UnknownStrategyError extends StockError {
  constructor(readonly strategy: string) {
    super({ en: `unknown strategy "${strategy}"; valid strategies: ${STRATEGY_NAMES.join(', ')}`, 'zh-CN': `未知的策略“${strategy}”；可用的策略：${STRATEGY_NAMES.join(', ')}` });
  }
}

export class ProductNotFoundError extends StockError {
  constructor(readonly productId: number) {
    super({ en: `product ${productId} does not exist; reset it first with POST /api/products/${productId}/reset`, 'zh-CN': `商品 ${productId} 不存在；请先用 POST /api/products/${productId}/reset 重置它` });
  }
}

export class StrategyMismatchError extends StockError {
  constructor(
    readonly productId: number,
    readonly resetFor: StrategyName,
    readonly asked: StrategyName,
  ) {
    super({
      en: `product ${productId} was reset for strategy "${resetFor}", not "${asked}"; each strategy keeps its own stock store`,
      'zh-CN': `商品 ${productId} 是为策略“${resetFor}”重置的，不是“${asked}”；每个策略有自己的库存存储`,
    });
  }
}

/** The store holds no stock for the product's run, and the run was never seeded there (a reset that did not finish): reset it. */
export class StockNotSeededError extends StockError {
  constructor(readonly productId: number) {
    super({ en: `no stock is seeded for product ${productId} in its strategy's store; reset the product`, 'zh-CN': `商品 ${productId} 在其策略的存储中没有初始化库存；请重置该商品` });
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
    super({
      en: `the stock store of product ${productId} (run ${runId}) lost its keys although the run was seeded (Redis restarted or was flushed); reset the product`,
      'zh-CN': `商品 ${productId}（运行 ${runId}）的库存存储在初始化后丢失了它的 key（Redis 重启或被清空）；请重置该商品`,
    });
  }
}

/** Redis, MySQL or a lock service did not answer; nothing was taken (or what was taken has been given back). */
export class StoreUnavailableError extends StockError {
  constructor(
    readonly store: 'redis' | 'mysql' | LockService,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ en: `${store} is unavailable: ${reason}`, 'zh-CN': `${store} 不可用：${reason}` }, { cause });
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
    super({ en: `${LOCK_SERVICES[service].title}: ${cause.message}; nothing was taken`, 'zh-CN': `${LOCK_SERVICES[service].title}：锁 ${cause.key} 不可用：只有 ${cause.reachable} 个节点响应，需要 ${cause.needed} 个构成多数派；没有扣减任何库存` }, { cause });
  }
}

/** The strategy's lock lives on a lock service (etcd, …) this process was not told the address of. */
export class LockServiceMissingError extends StockError {
  constructor(readonly service: LockService) {
    const { title, env } = LOCK_SERVICES[service];
    super({ en: `this strategy locks on ${title}, and ${env} is not set: npm run demo starts it, or set ${env}`, 'zh-CN': `该策略在 ${title} 上加锁，但没有设置 ${env}：请用 npm run demo 启动它，或设置 ${env}` });
  }
}

/** orderWrite 'stream' asked of a strategy whose take is not one script that can append its order. */
export class OrderWriteUnsupportedError extends StockError {
  constructor(
    readonly strategy: StrategyName,
    readonly orderWrite: string,
  ) {
    super({
      en: `strategy "${strategy}" cannot write its orders as "${orderWrite}": only the Redis strategies whose take is one script on one Redis append the order in it; use sync or queued`,
      'zh-CN': `策略“${strategy}”不能以“${orderWrite}”方式写订单：只有在单个 Redis 上用一个脚本完成扣减的 Redis 策略，才能在该脚本中追加订单；请用 sync 或 queued`,
    });
  }
}

/** Another order already used this idempotency key; the first order is the answer. */
export class DuplicateIdempotencyKeyError extends StockError {
  constructor(readonly idempotencyKey: string) {
    super({ en: `idempotency key "${idempotencyKey}" was already used`, 'zh-CN': `幂等键“${idempotencyKey}”已被使用` });
  }
}

/** An idempotency key already used for a different order (another product, quantity or strategy). */
export class IdempotencyKeyReusedError extends StockError {
  constructor(
    readonly idempotencyKey: string,
    /** The first order's id, or its request id while it is queued (orderWrite 'queued'). */
    readonly orderId: number | string,
  ) {
    super({
      en: `idempotency key "${idempotencyKey}" was already used for order ${orderId}, with other details; use a new key for a new order`,
      'zh-CN': `幂等键“${idempotencyKey}”已用于订单 ${orderId}，且订单内容不同；新订单请使用新的幂等键`,
    });
  }
}
