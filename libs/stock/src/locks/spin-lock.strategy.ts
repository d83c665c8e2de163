import { setTimeout as sleep } from 'node:timers/promises';
import type { DeductContext } from '../stock-strategy';
import { preciseNow } from './clock';
import { LockBasedStrategy, type LockHolding } from './lock-based.strategy';

const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 50;

/**
 * A lock that waiters poll: try, back off with jitter, try again until the wait runs out. Jitter
 * keeps the waiters of several processes from retrying in lockstep.
 */
export abstract class SpinLockStrategy extends LockBasedStrategy {
  /** One attempt; true when this caller now holds the lock under `token`. */
  protected abstract tryAcquire(key: string, token: string, ttlMs: number): Promise<boolean>;

  /** The value this holder writes into the lock. */
  protected token(context: DeductContext): string {
    return `${this.options.instanceId}:${context.requestId}`;
  }

  protected async acquire(key: string, context: DeductContext, waitMs: number): Promise<LockHolding | null> {
    const token = this.token(context);
    const ttlMs = context.settings.lockTtlMs;
    const deadline = Date.now() + waitMs;
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      if (await this.tryAcquire(key, token, ttlMs)) return { key, token, acquiredAt: preciseNow(), ttlMs };
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await sleep(Math.min(left, backoff / 2 + Math.random() * backoff));
    }
  }
}
