import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { preciseNow } from '../clock';
import type { AcquireOptions, DistributedLock, LockHolding } from '../distributed-lock';
import { holdingOf } from '../holding';
import { loadLuaScript, useScripts } from '../lua-script';
import { LockWakeups } from './lock-wakeups';

export const WATCHDOG_SCRIPTS = [
  loadLuaScript(__dirname, 'watchdog-acquire-1.lua'),
  loadLuaScript(__dirname, 'watchdog-renew-1.lua'),
  loadLuaScript(__dirname, 'watchdog-release-2.lua'),
] as const;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    watchdogAcquireV1(lockKey: string, leaseMs: number, owner: string): Result<number | null, Context>;
    watchdogReleaseV1(lockKey: string, channel: string, leaseMs: number, owner: string): Result<number, Context>;
    watchdogRenewV1(lockKey: string, leaseMs: number, owner: string): Result<number, Context>;
  }
}

interface Renewal {
  holds: number;
  timer: NodeJS.Timeout;
  controller: AbortController;
}

/**
 * Guarantees: never granted to two holders on one Redis, whatever the critical section's length: the
 * lease is renewed while the holder lives; a dead holder loses the lock within one lease; a renewal
 * that fails raises the holding's signal (lock lost), so the holder can stop before writing.
 * Fails: a pause of the whole process longer than the lease (stop-the-world GC, a frozen VM) freezes
 * the renewals too; the lock expires and another process enters, and the paused holder learns it only
 * at its next renewal. A Redis failover that loses the unreplicated key double-grants it.
 *
 * Redisson's RLock, by hand: a reentrant lock (a hash owner → hold count) acquired and released in
 * Lua (the watchdog strategy names each order its own owner, so orders never re-enter each other's
 * holds; reentrancy serves code that takes the lock it already holds), kept alive by a watchdog that renews the lease every third of it for as long as the holding
 * process lives — so a slow holder never loses the lock, and a dead one loses it within one lease.
 * Waiters sleep until the release message (or a bounded timeout) instead of spinning.
 */
export class WatchdogLock implements DistributedLock {
  readonly name = 'watchdog';
  private readonly renewals = new Map<string, Renewal>();
  private readonly wakeups: LockWakeups;

  /** `subscriber` is a connection of its own: one in subscriber mode can send no other command. */
  constructor(
    private readonly redis: Redis,
    subscriber: Redis,
  ) {
    useScripts(redis, WATCHDOG_SCRIPTS);
    this.wakeups = new LockWakeups(subscriber);
  }

  /** tryLock(waitTime, leaseTime): null when the lock was not free within waitMs. */
  async acquire(key: string, { waitMs, leaseMs, token: owner = randomUUID() }: AcquireOptions): Promise<LockHolding | null> {
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

  private held(key: string, owner: string, leaseMs: number): LockHolding {
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
    return holdingOf({
      key,
      token: owner,
      acquiredAt: preciseNow(),
      leaseMs,
      signal: renewal.controller.signal,
      // Leaves the lock once (it is reentrant). True if we still owned it.
      release: async () => {
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
    });
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
