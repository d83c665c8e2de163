import type { FaultSettings } from './faults';
import type { StrategyName } from './strategies';

export const DEFAULT_LOCK_TTL_MS = 2000;
export const DEFAULT_BUSINESS_DELAY_MS = 0;

export interface ResetProductRequest {
  stock: number;
  strategy: StrategyName;
  /** Lease of the lock strategies' lock, in ms. */
  lockTtlMs?: number;
  /** Time spent "doing business" inside the critical section, in ms; > lockTtlMs shows the expiry pitfall. */
  businessDelayMs?: number;
  /** Faults injected at the fault points while the product is on sale (a run passes its own). */
  faults?: FaultSettings[];
  /** Segments for the segmented strategy (default 5). */
  segments?: number;
}

/** The settings a product was last reset with: one run of one strategy. */
export interface ProductRunSettings {
  productId: number;
  runId: string;
  strategy: StrategyName;
  initialStock: number;
  lockTtlMs: number;
  businessDelayMs: number;
  segments: number;
  /** The run's faults, read by every instance at the fault points (none when omitted). */
  faults?: FaultSettings[];
}

export interface InventoryView {
  productId: number;
  runId: string;
  strategy: StrategyName;
  initialStock: number;
  /** The run's lock lease and business time: whether a strategy with a fixed lease can oversell in it. */
  lockTtlMs: number;
  businessDelayMs: number;
  /**
   * Stock left in the strategy's own store (Redis key(s) or MySQL column), as the store says it: below 0
   * where a counter was overdrawn and never put back (decr-check), which strands the units it owes.
   */
  remaining: number;
  /** Units in MySQL orders recorded for this run. */
  sold: number;
  orders: number;
  oversold: number;
  /** remaining + sold == initialStock and remaining >= 0. */
  storesAgree: boolean;
  /**
   * The run was seeded but its store now holds nothing (Redis restarted without persistence, or was
   * flushed): `remaining` reads 0 because the figure is gone, not because the stock was sold.
   */
  storeLost: boolean;
}

/** What the "break stale lock" admin action removed: the lock(s) of the product's current run. */
export interface BrokenLocksView {
  productId: number;
  runId: string;
  strategy: StrategyName;
  /** Lock keys deleted (0: none was held, or the strategy holds no lock of its own). */
  broken: number;
}
