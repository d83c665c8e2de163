import type Redis from 'ioredis';
import type { LockWakeups } from './lock-wakeups';

export interface WatchdogLockOptions {
  /** How long to wait for the lock before giving up. */
  waitMs: number;
  /** Lease of the Redis key; the watchdog renews it every third of it while the holder lives. */
  leaseMs: number;
}

interface Renewal {
  holds: number;
  timer: NodeJS.Timeout;
  controller: AbortController;
}

/** A holding of the watchdog lock: let go of it with unlock(); watch `signal` for loss. */
export interface WatchdogHolding {
  key: string;
  owner: string;
  /** Aborted if a renewal finds the lock no longer ours (or Redis unreachable): stop and do not write. */
  signal: AbortSignal;
  /** Leaves the lock once (it is reentrant). True if we still owned it. */
  unlock(): Promise<boolean>;
}

/**
 * Redisson's RLock, by hand: a reentrant lock (a hash owner → hold count) acquired and released in
 * Lua (the watchdog strategy names each order its own owner, so orders never re-enter each other's
 * holds; reentrancy serves code that takes the lock it already holds), kept alive by a watchdog that renews the lease every third of it for as long as the holding
 * process lives — so a slow holder never loses the lock, and a dead one loses it within one lease.
 * Waiters sleep until the release message (or a bounded timeout) instead of spinning.
 */
export class WatchdogLock {
  private readonly renewals = new Map<string, Renewal>();

  constructor(
    private readonly redis: Redis,
    private readonly wakeups: LockWakeups,
  ) {}

  /** tryLock(waitTime, leaseTime): null when the lock was not free within waitMs. */
  async tryLock(key: string, owner: string, { waitMs, leaseMs }: WatchdogLockOptions): Promise<WatchdogHolding | null> {
    if ((await this.redis.watchdogAcquireV1(key, leaseMs, owner)) === null) return this.held(key, owner, leaseMs);
    if (waitMs <= 0) return null;
    const channel = releaseChannel(key);
    const deadline = Date.now() + waitMs;
    await this.wakeups.join(channel);
    try {
      for (;;) {
        const ttl = await this.redis.watchdogAcquireV1(key, leaseMs, owner);
        if (ttl === null) return this.held(key, owner, leaseMs);
        const left = deadline - Date.now();
        if (left <= 0) return null;
        // Wait for the release message, but never longer than the lock can live without renewal.
        await this.wakeups.wait(channel, Math.min(left, ttl > 0 ? ttl : leaseMs));
      }
    } finally {
      // A failed UNSUBSCRIBE must not lose the holding just taken (its renewal already runs).
      await this.wakeups.leave(channel).catch(() => undefined);
    }
  }

  private held(key: string, owner: string, leaseMs: number): WatchdogHolding {
    const id = `${key}\u0000${owner}`;
    let renewal = this.renewals.get(id);
    if (renewal) {
      renewal.holds++;
    } else {
      const controller = new AbortController();
      const timer = setInterval(() => void this.renew(id, key, owner, leaseMs), Math.max(1, Math.floor(leaseMs / 3)));
      // The watchdog must never keep a process alive on its own.
      timer.unref();
      renewal = { holds: 1, timer, controller };
      this.renewals.set(id, renewal);
    }
    let released = false;
    return {
      key,
      owner,
      signal: renewal.controller.signal,
      unlock: async () => {
        if (released) throw new Error(`lock ${key} already unlocked by this holding`);
        released = true;
        let verdict: number;
        try {
          verdict = await this.redis.watchdogReleaseV1(key, releaseChannel(key), leaseMs, owner);
        } catch (error) {
          // Release not confirmed: stop renewing, so the lease runs out within one lease as after a
          // crash — renewing on would keep a lock nobody holds alive for as long as this process lives.
          this.stop(id);
          throw error;
        }
        this.forget(id, verdict !== 0);
        return verdict !== -1;
      },
    };
  }

  private async renew(id: string, key: string, owner: string, leaseMs: number): Promise<void> {
    let renewed: boolean;
    try {
      renewed = (await this.redis.watchdogRenewV1(key, leaseMs, owner)) === 1;
    } catch {
      // Redis unreachable: the lease may run out before we can renew, so the holder must assume it is lost.
      renewed = false;
    }
    const renewal = this.renewals.get(id);
    if (!renewed && renewal) {
      renewal.controller.abort(new Error(`lost the lock ${key}: the lease could not be renewed`));
      this.stop(id);
    }
  }

  /** One hold ended; the watchdog stops with the last one, or at once when the lock is gone. */
  private forget(id: string, lockGone: boolean): void {
    const renewal = this.renewals.get(id);
    if (!renewal) return;
    if (lockGone || --renewal.holds === 0) this.stop(id);
  }

  private stop(id: string): void {
    const renewal = this.renewals.get(id);
    if (!renewal) return;
    clearInterval(renewal.timer);
    this.renewals.delete(id);
  }
}

export function releaseChannel(lockKey: string): string {
  return `${lockKey}:released`;
}
