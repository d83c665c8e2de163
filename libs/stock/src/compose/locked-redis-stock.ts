import type { ProductRunSettings, StrategyName, StrategyScript } from '@oversell/contracts';
import type { DistributedLock } from '@oversell/locks';
import { readCheckWrite } from '../redis/redis-stock';
import type { DeductContext, DeductResult } from '../stock-strategy';
import { LockGuard } from './lock-guard';
import { RedisStockStrategy } from './redis-stock-strategy';
import type { StrategyDefinition, StrategyDeps } from './strategy-definition';

/**
 * "This lock around the Redis stock read-check-write": GET, check, business time, SET, record the order.
 * The lock is built on deps.lockRedis: the stock's Redis unless a Sentinel group is given for the locks.
 */
export class LockedRedisStock extends RedisStockStrategy {
  readonly streamsOrders = true;
  private readonly guard: LockGuard;
  private readonly lockRedis: StrategyDeps['lockRedis'];

  constructor(
    readonly name: StrategyName,
    lock: DistributedLock,
    deps: StrategyDeps,
  ) {
    super(deps.redis, deps.options.keyPrefix);
    this.guard = new LockGuard(lock, this.name, deps);
    this.lockRedis = deps.lockRedis;
  }

  breakLocks(settings: ProductRunSettings): Promise<number> {
    return this.lockRedis.del(this.store.keys(settings).lock);
  }

  deduct(context: DeductContext): Promise<DeductResult> {
    const keys = this.store.keys(context.settings);
    // The lock tells its holder when it learns the lock is lost; the section then writes nothing.
    return this.guard.run(keys.lock, context, (holding) => readCheckWrite(this.store.redis, keys, context, holding));
  }
}

/** A registry row for a lock around the Redis stock. */
export function lockedRedisStock<Name extends StrategyName>(name: Name, scripts: readonly StrategyScript[], lock: (deps: StrategyDeps) => DistributedLock): StrategyDefinition<Name> {
  return { name, scripts, create: (deps) => new LockedRedisStock(name, lock(deps), deps) };
}
