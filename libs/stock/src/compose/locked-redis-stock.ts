import type { ProductRunSettings, StrategyDescription, StrategyName } from '@oversell/contracts';
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
  readonly name: StrategyName;
  private readonly guard: LockGuard;
  private readonly lockRedis: StrategyDeps['lockRedis'];

  constructor(
    private readonly description: StrategyDescription,
    lock: DistributedLock,
    deps: StrategyDeps,
  ) {
    super(deps.redis, deps.options.keyPrefix);
    this.name = description.name;
    this.guard = new LockGuard(lock, this.name, deps);
    this.lockRedis = deps.lockRedis;
  }

  describe(): StrategyDescription {
    return this.description;
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
export function lockedRedisStock(description: StrategyDescription, lock: (deps: StrategyDeps) => DistributedLock): StrategyDefinition {
  return { name: description.name, needs: description.needs, create: (deps) => new LockedRedisStock(description, lock(deps), deps) };
}
