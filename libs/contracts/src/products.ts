import type { FaultSettings } from './faults';
import type { StrategyName } from './strategies';

export const DEFAULT_LOCK_TTL_MS = 2000;
export const DEFAULT_BUSINESS_DELAY_MS = 0;

/**
 * How a sold order reaches MySQL. sync: the order's INSERT before the answer (201). queued: once the
 * stock is taken in Redis the order becomes a BullMQ job keyed by its request id, written later in
 * batches by the instances' order writers; the answer (202) comes as soon as the job is in Redis.
 * stream: the script that takes the stock appends the order to the run's Redis Stream in the same
 * atomic step (the Redis strategies that end in one stock write only); the answer (202) comes when the
 * script returns, and the instances' stream writers insert the orders in batches.
 */
export const ORDER_WRITES = ['sync', 'queued', 'stream'] as const;
export type OrderWrite = (typeof ORDER_WRITES)[number];
export const DEFAULT_ORDER_WRITE: OrderWrite = 'sync';

/**
 * The settings one run of one strategy is made of, written once: the product reset, the run's
 * parameters, the batch request, a scenario file, the products row, the inventory and the dashboard's
 * form are all derived from it (Pick, Omit, extends), so a setting added here reaches each or fails to compile.
 */
export interface RunSettings {
  strategy: StrategyName;
  /** Units the product starts the run with. */
  initialStock: number;
  /** Lease of the lock strategies' lock, in ms. */
  lockTtlMs: number;
  /** Time spent "doing business" inside the critical section, in ms; > lockTtlMs shows the expiry pitfall. */
  businessDelayMs: number;
  /** Segments for the segmented strategy. */
  segments: number;
  /** How the run's sold orders are written to MySQL; sync when absent. */
  orderWrite?: OrderWrite;
  /** Faults injected at the fault points during the run, read by every instance (none when omitted). */
  faults?: FaultSettings[];
}

/** The lock, business and order-write settings a request may leave out (their defaults are the catalogue's). */
export type LockSettings = Partial<Pick<RunSettings, 'lockTtlMs' | 'businessDelayMs' | 'segments' | 'orderWrite'>>;

/** A product reset by hand: its stock (`stock`, the run's initial stock), its strategy, the optional settings. */
export interface ResetProductRequest extends Pick<RunSettings, 'strategy' | 'faults'>, LockSettings {
  stock: number;
}

/** The settings a product was last reset with: one run of one strategy. */
export interface ProductRunSettings extends RunSettings {
  productId: number;
  runId: string;
}

export interface InventoryView extends Pick<ProductRunSettings, 'productId' | 'runId' | 'strategy' | 'initialStock' | 'lockTtlMs' | 'businessDelayMs'> {
  /**
   * Stock left in the strategy's own store (Redis key(s) or MySQL column), as the store says it: below 0
   * where a counter was overdrawn and never put back (decr-check), which strands the units it owes.
   */
  remaining: number;
  /** Units in MySQL orders recorded for this run. */
  sold: number;
  orders: number;
  oversold: number;
  /** remaining + sold == initialStock, remaining >= 0, and (where the store keeps moves) every request id accounted for. */
  storesAgree: boolean;
  /**
   * Units gone for good: taken from the store by a request with no order (or taken again by a request
   * that ordered once), plus units the store lost with no move noted. Never the lost updates.
   */
  lost: number;
  /**
   * Takes that left no trace in the stock: the moves (or, for a MySQL row, the orders) say more units
   * were taken than the store went down by — two holders read the same stock and wrote the same value
   * (the no-lock anomaly). Each one is a unit sold twice.
   */
  lostUpdates: number;
  /** Units sold twice (unitsSoldTwice): the figure a load tool's check and the dashboard's headline read. */
  soldTwice: number;
  /** The takes whose order MySQL could not confirm nor deny when its write failed, settled once it answered. */
  settledLate: SettledLate;
  /**
   * The store's moves checked against the orders by request id; null for a store that keeps none of its
   * own (a MySQL row: the stock and the order commit in one transaction, so the orders are its moves).
   */
  moves: StockMovesAudit | null;
  /**
   * The run was seeded but its store now holds nothing (Redis restarted without persistence, or was
   * flushed): `remaining` reads 0 because the figure is gone, not because the stock was sold.
   */
  storeLost: boolean;
}

/** Request ids found in one state: how many, and the first few (sorted), to look them up. */
export interface RequestIds {
  count: number;
  /** Units involved (taken without an order; ordered but never taken; taken beyond the order). */
  units: number;
  first: string[];
}

/** The stock moves of a run (one entry per request id: its takes and give-backs) against its MySQL orders. */
export interface StockMovesAudit {
  /** Request ids with a move noted. */
  requests: number;
  /** Units the moves say were taken (takes minus give-backs). */
  unitsTaken: number;
  /** Units taken beyond what the taking request ordered (with no order: all it took). */
  unitsWithoutOrder: number;
  /** Took units (and did not give them back) but have no order. */
  takenWithoutOrder: RequestIds;
  /** Have an order but took no units (or gave them back). */
  orderedWithoutTake: RequestIds;
  /** Took units more than once: units counts the takes beyond the first. */
  takenTwice: RequestIds;
  /**
   * The first unit sold twice, as the moves journal shows it: two or more requests (sorted) whose takes
   * left the same stock, so wrote from the same read. The highest such stock left, as the stock only goes
   * down (requests that gave units back are left out: after a give-back a take may leave that stock again).
   * Absent when no two takes left the same stock, and in audits from before it existed.
   */
  firstSameRead?: { stockLeft: number; requestIds: string[] };
}

/** What the "break stale lock" admin action removed: the lock(s) of the product's current run. */
export interface BrokenLocksView {
  productId: number;
  runId: string;
  strategy: StrategyName;
  /** Lock keys deleted (0: none was held, or the strategy holds no lock of its own). */
  broken: number;
}

/**
 * Orders whose write failed while MySQL could not say whether it landed (an outage mid-INSERT): their
 * units stayed taken until MySQL answered again, then were kept (the order had landed) or given back.
 */
export interface SettledLate {
  /** Still waiting for MySQL to answer (their units taken, no order known). */
  pending: number;
  kept: number;
  givenBack: number;
}
