import type { Locale } from '../locale';
import type { LockFault } from '../lock-faults';
import type { LockService } from '../lock-services';

/** Where a strategy keeps the stock it deducts from. */
export type StockStore = 'redis' | 'mysql';

/** How a strategy keeps concurrent deductions apart. */
export type StrategyKind = 'none' | 'lock' | 'atomic' | 'database';

/** The run settings (besides stock and load) that a strategy can read. */
export type StrategySetting = 'lockTtlMs' | 'businessDelayMs' | 'segments';

/**
 * The lease, if any, on what keeps an order's deduction apart from the others:
 * - 'none': nothing held expires (no lock at all, one atomic step, a database transaction, a lock with no expiry);
 * - 'fixed': the lock expires lockTtlMs after it was taken, whatever its holder is still doing, so it
 *   keeps orders apart only while the work under it (the business delay included) is shorter than the TTL;
 * - 'renewed': the holder keeps extending the lease while it lives, so the length of the work does not matter.
 */
export type LockLease = 'none' | 'fixed' | 'renewed';

/** Where a strategy stands in "Choosing a lock" (docs/choosing-a-lock.md, the Explain view), in words. */
export interface LockChoiceTexts {
  /** What it needs running besides the order service (e.g. "one Redis", "a three-node etcd cluster in production"). */
  runsOn: string;
  /** How much there is to get right, and why, in a few words (e.g. "low: one Lua script"). */
  complexity: string;
  /** The reliability class: what it guarantees and the limit of that guarantee. */
  reliability: string;
  /** What happens to the orders under each fault, as the design says it should. */
  underFault: Record<LockFault, string>;
}

/** What a reader is told of a strategy, in one language. */
export interface StrategyTexts {
  title: string;
  description: string;
  guarantee: string;
  pitfall: string;
  /** How to make the pitfall happen on demand (e.g. "business delay > lock TTL"). */
  reproduce: string;
  /** Where the behaviour shows on the dashboard: what the Explain view tells the audience to look at. */
  symptom: string;
  /** What the strategy does for one order, step by step. */
  steps: readonly string[];
  /** Present when the strategy is compared in "Choosing a lock"; then in every language (the catalogue's test checks). */
  choice?: LockChoiceTexts;
}

/** One strategy's row of the catalogue: every static fact about it, nothing that needs a connection. */
export interface StrategyEntry<Name extends string = string> {
  readonly name: Name;
  readonly kind: StrategyKind;
  readonly store: StockStore;
  /** The run settings this strategy reads: the run form shows and sends only those (bounds: STRATEGY_SETTINGS). */
  readonly settings: readonly StrategySetting[];
  /** Whether a business time longer than the lock TTL lets a second order in (see LockLease). */
  readonly lease: LockLease;
  /**
   * True when the strategy is right to use on a healthy store: no business time makes it oversell
   * (nothing lets a second holder in while the first still works: a renewed lease, no lease, or a holder
   * that checks its lease before writing, as RedLock's does), and a holder that dies does not block it
   * for good. False for the fixed leases that lapse under a slow holder (naive-setnx, uuid-lua,
   * segmented, …: right only while the TTL covers the business time) and for the locks a dead holder
   * keeps for ever (setnx-no-ttl, db-lock-table). The dashboard's tag and the soak's list read it; a
   * pause of the whole process breaks some "safe" ones too (their pitfall says which).
   */
  readonly safe: boolean;
  /** The lock services it cannot run without (none: Redis and MariaDB only); the launcher starts them. */
  readonly needs: readonly LockService[];
  /**
   * 'slow' when a contended lock passes from one order to the next only a few times a second: its
   * waiters do not queue (as etcd's and ZooKeeper's do) but retry, and each retry of a quorum lock is a
   * round of writes on every node that splits the votes when it meets another's. A load sized for the
   * other locks outlasts the lock wait on it; the correctness suite sizes its load by this. Absent: 'fast'.
   */
  readonly grantRate?: 'fast' | 'slow';
  /** Its lock's name in `npm run bench:locks`, when its lock is measured there on its own. */
  readonly benchLock?: string;
  /** Every text a reader sees, in every language: a language left out does not compile. */
  readonly texts: Readonly<Record<Locale, StrategyTexts>>;
}

/** A catalogue entry, its name kept as a literal type so that the table's names make StrategyName. */
export function defineStrategy<const Name extends string>(entry: StrategyEntry<Name>): StrategyEntry<Name> {
  return entry;
}
