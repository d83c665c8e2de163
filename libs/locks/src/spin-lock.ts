import { randomUUID } from 'node:crypto';
import { preciseNow } from './clock';
import { NO_HOOKS, type AcquireOptions, type DistributedLock, type LockHolding, type LockHooks, type ReleaseResult } from './distributed-lock';
import { holdingOf } from './holding';
import { spin } from './spin';

/** The two steps that make a spin lock: one attempt to take it, and letting go. */
export interface SpinLockSteps {
  /** One attempt; true when `token` now holds `key`. */
  tryAcquire(key: string, token: string, leaseMs: number, hooks: LockHooks): Promise<boolean>;
  release(key: string, token: string, leaseMs: number, hooks: LockHooks): Promise<ReleaseResult>;
}

/** A lock whose waiters poll (try, back off with jitter, try again) until their wait runs out. */
export function spinLock(name: string, steps: SpinLockSteps): DistributedLock {
  return {
    name,
    async acquire(key: string, { waitMs, leaseMs, token = randomUUID(), hooks = NO_HOOKS }: AcquireOptions): Promise<LockHolding | null> {
      const acquiredAt = await spin(async () => ((await steps.tryAcquire(key, token, leaseMs, hooks)) ? preciseNow() : null), waitMs);
      if (acquiredAt === null) return null;
      return holdingOf({ key, token, acquiredAt, leaseMs, release: () => steps.release(key, token, leaseMs, hooks) });
    },
  };
}
