import { preciseNow } from './clock';

/**
 * One lock interface for every lock of the lab (Curator's InterProcessLock, node-redlock's shape):
 * acquire a key with a wait and a lease, get back a holding that knows how to release itself.
 */
export interface AcquireOptions {
  /** How long to wait for the lock before giving up (0: one attempt). */
  waitMs: number;
  /** How long the lock lives without its holder renewing it (ignored by locks with no expiry). */
  leaseMs: number;
  /** The value that names this holder in the store; a random UUID when left out. */
  token?: string;
  /** Called at the lock's own named moments (between two of its commands), for injecting faults. */
  hooks?: LockHooks;
}

/**
 * The moments inside a lock's own steps where a pause or a crash shows its pitfall: a hand-made lock
 * that takes two commands to do one thing is only as safe as the gap between them.
 */
export const LOCK_POINTS = ['lock-set-before-expire', 'release-checked-before-del', 'stamp-read-before-getset'] as const;
export type LockPoint = (typeof LOCK_POINTS)[number];

export interface LockHooks {
  /** Undefined when nothing is armed at the point (the stock library's fault points): awaiting it is then no pause. */
  at(point: LockPoint): Promise<void> | undefined;
  /**
   * The holder's clock, in ms, for the locks that compare timestamps (setnx-getset); the lock's own
   * clock when absent. A fault can shift it for one order without rebuilding the lock.
   */
  now?(): number;
}

/** Hooks that do nothing: the default outside tests and fault runs. */
export const NO_HOOKS: LockHooks = { at: async () => undefined };

/**
 * Whether the holder still owned the lock when it let go: false means the lease had run out and
 * someone else may have been inside too; 'unknown' for locks that cannot tell (a plain DEL).
 */
export type ReleaseResult = boolean | 'unknown';

export interface LockHolding {
  readonly key: string;
  readonly token: string;
  /** When the store granted the lock (preciseNow: wall-clock ms with sub-ms fractions). */
  readonly acquiredAt: number;
  readonly leaseMs: number;
  /** Raised when the holder learns it lost the lock; locks that cannot learn it never raise it. */
  readonly signal: AbortSignal;
  /**
   * For a lease fixed at the grant and never renewed (RedLock's validity): the preciseNow() past which
   * another client may hold the lock. Read it through knownLost(), not the signal alone (see there).
   */
  readonly validUntil?: number;
  /** A number that grows with every grant, for stores that refuse stale writers; only some locks have one. */
  readonly fencingToken?: number;
  /** Dispatches 'renewed' each time the lock extends the lease by a whole lease from now; only renewing locks have it. */
  readonly renewals?: EventTarget;
  /** Lets go; once only. */
  release(): Promise<ReleaseResult>;
}

/**
 * Whether the holder knows, now, that the lock may no longer be its own: the signal fired, or the clock
 * is past a fixed validity. The clock has to be read here: a timer raising the signal at the validity
 * can run too late. After a pause (a stop-the-world GC) Node runs the timers that fell due in the order
 * they were due, so the section's own earlier timer (its business time), or the pause's end in the same
 * turn, resumes the holder before the validity's timer has fired, and a signal-only check passes.
 */
export function knownLost(holding: Pick<LockHolding, 'signal' | 'validUntil'>): boolean {
  return holding.signal.aborted || (holding.validUntil !== undefined && preciseNow() >= holding.validUntil);
}

export interface DistributedLock {
  /** Names the lock in events and errors ("uuid-lua", "watchdog", …). */
  readonly name: string;
  /** The holding, or null when the lock was not had within options.waitMs. */
  acquire(key: string, options: AcquireOptions): Promise<LockHolding | null>;
}
