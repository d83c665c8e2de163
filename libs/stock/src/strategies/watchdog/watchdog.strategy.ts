import { Inject, Injectable } from '@nestjs/common';
import type { StrategyDescription } from '@oversell/contracts';
import { preciseNow } from '../../locks/clock';
import { LockBasedStrategy, type LockHolding, type ReleaseVerdict } from '../../locks/lock-based.strategy';
import { LockEvents } from '../../locks/lock-events';
import { RedisConnections } from '../../redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import type { DeductContext } from '../../stock-strategy';
import { LUA_SCRIPTS } from '../lua-scripts';
import { LockWakeups } from './lock-wakeups';
import { WatchdogLock, type WatchdogHolding } from './watchdog-lock';

/**
 * Redisson-style lock: reentrant owner hash in Lua, a watchdog renewing the lease every third of it
 * while the holder's process lives, waiters woken by the release message. A slow holder keeps the lock
 * (no expiry pitfall); a crashed one loses it within a lease. If a renewal fails the holder is told
 * (lock lost) and writes nothing.
 */
@Injectable()
export class WatchdogStrategy extends LockBasedStrategy {
  readonly name = 'watchdog' as const;
  private readonly lock: WatchdogLock;
  private readonly holdings = new WeakMap<LockHolding, WatchdogHolding>();

  constructor(connections: RedisConnections, @Inject(STOCK_OPTIONS) options: StockOptions, lockEvents: LockEvents) {
    super(connections.commands, options, lockEvents);
    this.lock = new WatchdogLock(connections.commands, new LockWakeups(connections.subscriber));
  }

  protected async acquire(key: string, context: DeductContext, waitMs: number): Promise<LockHolding | null> {
    const leaseMs = context.settings.lockTtlMs;
    const held = await this.lock.tryLock(key, `${this.options.instanceId}:${context.requestId}`, { waitMs, leaseMs });
    if (!held) return null;
    const holding: LockHolding = { key, token: held.owner, acquiredAt: preciseNow(), ttlMs: leaseMs, signal: held.signal };
    this.holdings.set(holding, held);
    return holding;
  }

  protected release(holding: LockHolding): Promise<ReleaseVerdict> {
    const held = this.holdings.get(holding);
    if (!held) throw new Error(`no watchdog holding for ${holding.key}`);
    return held.unlock();
  }

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'Watchdog lock (Redisson-style)',
      kind: 'lock',
      store: 'redis',
      safe: true,
      description:
        'A reentrant lock stored as a hash {owner: holds}, taken and released by Lua scripts. While held, a watchdog renews the lease every third of it; on release the last holder publishes a message that wakes one waiter per process (with a bounded timed wait as fallback).',
      guarantee: 'Never oversells on one Redis, whatever the business time: the lease is renewed while the holder lives. A holder that dies loses the lock within one lease.',
      pitfall:
        'A pause longer than the lease (stop-the-world GC, a frozen VM) stops the renewals too; the lock expires and another process enters. The holder is told (lock lost) only at the next renewal, and a write already on the wire still lands — only fencing tokens close that hole. On a Redis failover an unreplicated lock is lost.',
      reproduce: 'Not with the business delay: renewal covers it (run the expiry-pitfall scenario and watch it stay at 0). It takes a pause of the whole process longer than the lease — a fault hook at the lock-acquired point can inject one.',
      steps: ['EVAL watchdog-acquire: take or re-enter the owner hash, PEXPIRE lease', 'if taken by another: wait for the release message or at most its PTTL, retry', 'start renewing every lease/3 (watchdog-renew, only while we own it)', 'GET stock, check, business delay', 'if the lock-lost signal fired: stop, write nothing', 'SET stock − n, INSERT the order', 'EVAL watchdog-release: decrement holds; at 0 DEL and PUBLISH'],
      scripts: [LUA_SCRIPTS.watchdogAcquire, LUA_SCRIPTS.watchdogRenew, LUA_SCRIPTS.watchdogRelease].map((s) => ({ name: s.fileName, language: 'lua' as const, source: s.lua })),
    };
  }
}
