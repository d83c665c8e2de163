import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { preciseNow } from '../clock';
import type { AcquireOptions, DistributedLock, LockHolding } from '../distributed-lock';
import { holdingOf } from '../holding';
import { loadLuaScript, useScripts } from '../lua-script';
import { GrantFence } from './grant-fence';
import { LockLine } from './lock-line';
import { LockWakeups } from './lock-wakeups';

export const WATCHDOG_SCRIPTS = [
  loadLuaScript(__dirname, 'watchdog-acquire-3.lua'),
  loadLuaScript(__dirname, 'watchdog-renew-1.lua'),
  loadLuaScript(__dirname, 'watchdog-release-4.lua'),
  loadLuaScript(__dirname, 'watchdog-pass-1.lua'),
  loadLuaScript(__dirname, 'watchdog-leave-queue-4.lua'),
] as const;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    watchdogAcquireV1(lockKey: string, queue: string, seen: string, leaseMs: number, owner: string, process: string, join: Flag, keepMs: number): Result<number | null, Context>;
    watchdogReleaseV1(lockKey: string, channel: string, queue: string, seen: string, leaseMs: number, owner: string): Result<number, Context>;
    watchdogLeaveQueueV1(lockKey: string, channel: string, queue: string, seen: string, process: string): Result<number, Context>;
    watchdogRenewV1(lockKey: string, leaseMs: number, owner: string): Result<number, Context>;
    watchdogPassV1(lockKey: string, leaseMs: number, owner: string, nextOwner: string, nextLeaseMs: number): Result<number, Context>;
  }
}

type Flag = '0' | '1';

/**
 * Hand-overs in a row inside one process before its holder lets the lock go for every process's
 * waiters: bounds how long other processes wait while this one serves its own line.
 */
const MAX_PASSES = 16;

interface Renewal {
  holds: number;
  timer: NodeJS.Timeout;
  controller: AbortController;
  renewals: EventTarget;
}

interface Waiter {
  owner: string;
  leaseMs: number;
}

/** One key's line in this process, and what it keeps from one turn to the next. */
interface KeyLine {
  line: LockLine<Waiter, LockHolding>;
  /** Subscribed to the key's release channel: from the first attempt that had to wait until the line is idle. */
  listening: boolean;
  /** Hand-overs in a row inside this process since the lock was last let go. */
  passes: number;
  /** Unfair mode: release messages heard before this process's last release; the next head waits for that one's message. */
  releasedAfter?: number;
  /** This process may have a place in the key's queue of processes: from a head's first wait until the line is idle. */
  queued: boolean;
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
 * The callers of one process wait in a line per key, in arrival order: only its head talks to Redis,
 * sleeping until the release message (or a bounded timeout) instead of spinning, and a holder passes
 * the lock straight to the next in its line (a few times in a row, then lets it go for every process).
 * The processes take the lock in the order they started waiting for it (Redisson's RedissonFairLock,
 * one place per process): a release goes to the process that has waited longest, not to whichever
 * head's attempt reaches Redis first, and its message wakes that process's head alone; a process
 * that lets the lock go with callers still waiting takes its place again at the back. A process that dies while waiting holds the others back for at
 * most two leases (its place is kept that long after its last attempt).
 *
 * Fenced (`{ fenced: true }`, named watchdog-fenced): every grant is numbered by a fencing counter
 * (grant-fence.ts), for stores that refuse the writes of a holder the pitfall above left behind.
 */
export class WatchdogLock implements DistributedLock {
  readonly name: string;
  private readonly renewals = new Map<string, Renewal>();
  private readonly wakeups: LockWakeups;
  private readonly lines = new Map<string, KeyLine>();
  private readonly fence?: GrantFence;
  /** Whether a process that waits takes a place in the key's queue of processes (see tryUntil). */
  private readonly fair: boolean;
  /** This process's name in the queues of processes (one per lock object: each has its own lines). */
  private readonly process = randomUUID();

  /**
   * `subscriber` is a connection of its own: one in subscriber mode can send no other command.
   * `fair: false` (the lock bench's watchdog-unfair, to show what the queue of processes costs): no
   * process takes a place, so a free lock goes to whichever process's attempt reaches Redis first, as
   * with redis-semaphore's Mutex; its callers still wait in line inside their process.
   */
  constructor(
    private readonly redis: Redis,
    subscriber: Redis,
    { fenced = false, fair = true }: { fenced?: boolean; fair?: boolean } = {},
  ) {
    useScripts(redis, WATCHDOG_SCRIPTS);
    this.wakeups = new LockWakeups(subscriber, this.process);
    this.fair = fair;
    this.name = fenced ? 'watchdog-fenced' : fair ? 'watchdog' : 'watchdog-unfair';
    if (fenced) this.fence = new GrantFence(redis);
  }

  /**
   * tryLock(waitTime, leaseTime): null when the lock was not had within waitMs, time in this process's
   * line included. waitMs 0 is one attempt, straight to Redis; so is re-entry by the owner holding it.
   */
  async acquire(key: string, options: AcquireOptions): Promise<LockHolding | null> {
    const holding = await this.grant(key, options);
    return holding && this.fence ? this.fence.number(holding) : holding;
  }

  /** The lab's "break stale lock": deletes the lock whoever holds it (a fencing counter stays, so tokens keep growing). */
  async breakLock(key: string): Promise<boolean> {
    const [deleted] = await Promise.all([this.redis.del(key), this.redis.del(queueKey(key), seenKey(key))]);
    return deleted === 1;
  }

  private async grant(key: string, { waitMs, leaseMs, token: owner = randomUUID() }: AcquireOptions): Promise<LockHolding | null> {
    // Re-entry must not queue: the line ahead of it waits for the very hold it would add to.
    const reentry = this.renewals.has(holdId(key, owner));
    // One try is not served ahead of this process's own waiting callers (it would also spend their place).
    if (waitMs <= 0 && !reentry && this.lines.has(key)) return null;
    if (waitMs <= 0 || reentry) {
      return (await this.attempt(key, owner, leaseMs, '0')) === null ? this.held(key, owner, leaseMs) : null;
    }
    const deadline = Date.now() + waitMs;
    const entry = this.lineOf(key);
    const handed = await entry.line.enter({ owner, leaseMs }, waitMs);
    return handed === 'turn' ? this.takeTurn(key, entry, owner, leaseMs, deadline) : handed;
  }

  private lineOf(key: string): KeyLine {
    let entry = this.lines.get(key);
    if (!entry) this.lines.set(key, (entry = { line: new LockLine(), listening: false, passes: 0, queued: false }));
    return entry;
  }

  /** The head of the line: the holding it takes keeps the turn; without one, the turn goes to the next waiter. */
  private async takeTurn(key: string, entry: KeyLine, owner: string, leaseMs: number, deadline: number): Promise<LockHolding | null> {
    let holding: LockHolding | null = null;
    try {
      holding = await this.tryUntil(key, entry, owner, leaseMs, deadline);
      return holding;
    } finally {
      if (!holding) this.handOn(key, entry);
    }
  }

  /**
   * Tries, then sleeps until a release is heard (or until the lock could have expired), and tries
   * again. A free lock goes to the process that has waited longest (the queue in watchdog-acquire-3.lua):
   * the others' attempts are refused until it has had its turn, and a release's message names that
   * process, so only its head wakes. Unfair, every release wakes every head, and after this process's
   * own release the first try waits for that release's message, so this process's next head starts on
   * the same message as the other processes' heads, not ahead of them.
   */
  private async tryUntil(key: string, entry: KeyLine, owner: string, leaseMs: number, deadline: number): Promise<LockHolding | null> {
    const channel = releaseChannel(key);
    let heardBefore = entry.releasedAfter;
    entry.releasedAfter = undefined;
    // A lost message (pub/sub is at-most-once) costs at most this: the lock's time to live without renewal.
    let wakeAfterMs = leaseMs;
    for (;;) {
      if (heardBefore !== undefined) await this.wakeups.wait(channel, heardBefore, Math.min(deadline - Date.now(), wakeAfterMs));
      heardBefore = entry.listening ? this.wakeups.heard(channel) : undefined;
      // Attempts after the first take this process's place in the queue (or keep it): it waits from here on.
      // Marked before the attempt: one whose reply is lost may still have taken a place, to be left.
      const join = entry.listening && this.fair;
      if (join) entry.queued = true;
      const ttl = await this.attempt(key, owner, leaseMs, join ? '1' : '0');
      if (ttl === null) {
        // The script gave up the process's place with the grant.
        entry.queued = false;
        return this.held(key, owner, leaseMs, entry);
      }
      if (deadline - Date.now() <= 0) return null;
      if (!entry.listening) {
        // Subscribe, then try again at once: a release between the attempt and the subscription went unheard.
        await this.wakeups.join(channel);
        entry.listening = true;
        continue;
      }
      // Never longer than a lease: a holder with a longer one must not let this process's place lapse.
      wakeAfterMs = ttl > 0 ? Math.min(ttl, leaseMs) : leaseMs;
    }
  }

  /** One run of watchdog-acquire-3.lua: null if granted, else how long to wait at most. `join` '1': take or keep this process's place. */
  private attempt(key: string, owner: string, leaseMs: number, join: Flag): Promise<number | null> {
    return this.redis.watchdogAcquireV1(key, queueKey(key), seenKey(key), leaseMs, owner, this.process, join, keepPlaceMs(leaseMs));
  }

  /** One run of watchdog-release-4.lua: leaves one hold; the last one frees the lock and names the next process in line. */
  private release(key: string, owner: string, leaseMs: number): Promise<number> {
    return this.redis.watchdogReleaseV1(key, releaseChannel(key), queueKey(key), seenKey(key), leaseMs, owner);
  }

  /** The turn goes to the next waiter; a line left with nobody is forgotten, and stops listening. */
  private handOn(key: string, entry: KeyLine): void {
    entry.line.handOn();
    this.forgetIfIdle(key, entry);
  }

  private forgetIfIdle(key: string, entry: KeyLine): void {
    if (!entry.line.idle || this.lines.get(key) !== entry) return;
    this.lines.delete(key);
    // Failures here must not fail the release or acquisition that emptied the line: a place left in the
    // queue is dropped by the other processes once it is not kept (keepPlaceMs).
    if (entry.queued) void this.redis.watchdogLeaveQueueV1(key, releaseChannel(key), queueKey(key), seenKey(key), this.process).catch(() => undefined);
    if (entry.listening) void this.wakeups.leave(releaseChannel(key)).catch(() => undefined);
  }

  /**
   * The holder's turn ends. With a waiter of this process behind it, the lock passes straight to that
   * waiter in one script (at most MAX_PASSES times in a row); otherwise the lock is let go, its release
   * announced, and the next waiter gets the turn to try for it alongside the other processes' heads.
   * Returns the leaving holder's verdict: -1 it no longer owned the lock, 0 it still holds it, 1 it left.
   */
  private async handOver(key: string, entry: KeyLine, owner: string, leaseMs: number): Promise<number> {
    const next = entry.line.next();
    // The same owner waiting behind itself (two acquires with one token) is not passed to: its hold
    // would be counted into the one that is leaving.
    if (next && entry.passes < MAX_PASSES && next.waiter.owner !== owner) {
      let passed: number;
      try {
        passed = await this.redis.watchdogPassV1(key, leaseMs, owner, next.waiter.owner, next.waiter.leaseMs);
      } catch (error) {
        next.hand('turn');
        throw error;
      }
      entry.passes = passed === 1 ? entry.passes + 1 : 0;
      next.hand(passed === 1 ? this.held(key, next.waiter.owner, next.waiter.leaseMs, entry) : 'turn');
      return passed;
    }
    entry.passes = 0;
    const channel = releaseChannel(key);
    const heardBefore = entry.listening ? this.wakeups.heard(channel) : undefined;
    try {
      const released = await this.release(key, owner, leaseMs);
      // Unfair, the release wakes every process: this one's next head waits for that message too, or it
      // would win the race every time. Fair, the queue decides: it tries at once, to take its place.
      if (released === 1 && next && !this.fair) entry.releasedAfter = heardBefore;
      return released;
    } finally {
      if (next) next.hand('turn');
      else this.forgetIfIdle(key, entry);
    }
  }

  /**
   * A hold of the lock, renewed by the watchdog. Taken by the head of a line (`entry`), it keeps the
   * line's turn until it is released, or lost: a holder that never releases a lost lock must not hold
   * up the line.
   */
  private held(key: string, owner: string, leaseMs: number, entry?: KeyLine): LockHolding {
    const id = holdId(key, owner);
    let renewal = this.renewals.get(id);
    if (renewal) {
      renewal.holds++;
    } else {
      const controller = new AbortController();
      const timer = setInterval(() => void this.renew(id, key, owner, leaseMs), Math.max(1, Math.floor(leaseMs / 3)));
      // The watchdog must never keep a process alive on its own.
      timer.unref();
      renewal = { holds: 1, timer, controller, renewals: new EventTarget() };
      this.renewals.set(id, renewal);
    }
    let turn = entry;
    const { signal } = renewal.controller;
    const lost = () => {
      if (turn) this.handOn(key, turn);
      turn = undefined;
    };
    if (turn) signal.addEventListener('abort', lost, { once: true });
    return holdingOf({
      key,
      token: owner,
      acquiredAt: preciseNow(),
      leaseMs,
      signal,
      renewals: renewal.renewals,
      // Leaves the lock once (it is reentrant). True if we still owned it.
      release: async () => {
        const line = turn;
        turn = undefined;
        signal.removeEventListener('abort', lost);
        let verdict: number;
        try {
          verdict = line ? await this.handOver(key, line, owner, leaseMs) : await this.release(key, owner, leaseMs);
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
    if (renewed) renewal?.renewals.dispatchEvent(new Event('renewed'));
    else if (renewal) {
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

const holdId = (key: string, owner: string) => `${key}\u0000${owner}`;

export function releaseChannel(lockKey: string): string {
  return `${lockKey}:released`;
}

/** The processes waiting for a lock, in the order they started (a zset: process → when it joined; watchdog-acquire-3.lua). */
export const queueKey = (lockKey: string) => `${lockKey}:queue`;
/** How long each queued process's place is kept (a hash: process → keep-until, ms). */
export const seenKey = (lockKey: string) => `${lockKey}:queue:seen`;

/**
 * How long a process's place in the queue is kept without it trying again. A waiting head tries at
 * least once a lease (at every release message, else when the lock could have expired), so two leases
 * spare a live process slowed by its event loop; a dead one holds the others back at most this long.
 */
const keepPlaceMs = (leaseMs: number) => 2 * leaseMs;
