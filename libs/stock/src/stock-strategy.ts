import type { PlacedOrder, ProductRunSettings, StrategyName } from '@oversell/contracts';
import type Redis from 'ioredis';
import type { EntityManager } from 'typeorm';
import type { FaultPoints } from './fault-points';
import type { StockMovesRead } from './request-moves';

/** Everything a strategy gets for one order. */
export interface DeductContext {
  /** Unique per order attempt; lock values and lock events carry it. */
  requestId: string;
  quantity: number;
  settings: ProductRunSettings;
  /**
   * Writes the order row. Strategies call it inside their critical section, after taking the stock,
   * and give it their transaction's manager when they have one, so stock and order commit together.
   * Under orderWrite 'queued' a call without a manager queues the order instead (a QueuedOrderView).
   */
  record(manager?: EntityManager): Promise<PlacedOrder>;
  /** The order record() wrote or queued, if it landed: asked after a write failed in a way that does not say. */
  recorded(): Promise<PlacedOrder | null>;
  /**
   * The order will not be: its units went back. Lets go of what record() claimed for it (a queued
   * order's idempotency key), so a retry with the same key is served. Absent where nothing is claimed.
   */
  abandoned?(): Promise<void>;
  /**
   * The order's write failed and MySQL could not say whether it landed: its units stay taken, and are
   * settled once MySQL answers (kept, or given back with `giveBack`). Absent where nothing settles them.
   */
  settleLater?(giveBack: () => Promise<unknown>): Promise<void>;
  /**
   * orderWrite 'stream': the order (JSON) the strategy's take script appends to the run's order stream
   * in the step that takes the stock; record() then writes nothing. Absent under sync and queued.
   */
  orderIntent?: string;
  /**
   * orderWrite 'stream' with an idempotency key: the take script claims the key for this request in the
   * step that appends the order (the order's row, and so the unique index, comes only later). A key
   * another request holds refuses the take (DuplicateIdempotencyKeyError), nothing taken.
   */
  orderClaim?: OrderClaim;
  /** Named points in the critical section where delays, pauses or crashes are injected. */
  faults: FaultPoints;
}

/** An idempotency key's claim in Redis: its key, how long it is kept, and the key as the client gave it. */
export interface OrderClaim {
  key: string;
  seconds: number;
  idempotencyKey: string;
}

export type DeductResult = (
  | { outcome: 'sold'; order: PlacedOrder }
  | { outcome: 'sold_out' }
  | { outcome: 'lock_timeout' }
  | { outcome: 'lock_lost' }
  /** The store refused the write: a newer holder's fencing token had reached it first. */
  | { outcome: 'fenced' }
  | { outcome: 'conflict' }
) & {
  /** Optimistic version checks that failed on the way to this outcome. */
  conflicts?: number;
};

/** One way of deducting stock. Each implementation is one file; the registry names them all. */
export interface StockStrategy {
  /** Its catalogue entry says what it guarantees and what breaks it (describeStrategies adds the scripts it runs). */
  readonly name: StrategyName;
  /** Seeds the strategy's store for a fresh run (the MySQL product row is already written). */
  prepare(settings: ProductRunSettings): Promise<void>;
  deduct(context: DeductContext): Promise<DeductResult>;
  /**
   * True where every take is one script that can append the order with it (DeductContext.orderIntent):
   * only these strategies may run under orderWrite 'stream'.
   */
  readonly streamsOrders?: boolean;
  /**
   * Where a stream-writing strategy's takes append their orders when that is not the run's one stream on
   * the lab's Redis (segmented-cluster: one stream per segment, on the cluster); absent, that one stream.
   */
  readonly orderStreams?: StrategyOrderStreams;
  /**
   * True where a streamed take asks the idempotency key's claim before it looks at the stock (one
   * script): a key already used is then refused by the take itself, even on a sold-out run, and the
   * placement sends no lookup of its own beside it.
   */
  readonly claimsKeyBeforeStock?: boolean;
  /** At most how many times one order spends the business delay (each optimistic retry spends it again); 1 when absent. */
  readonly businessDelaysPerOrder?: number;
  /** Stock left in the strategy's own store; null when the store holds nothing for the product. */
  remaining(settings: ProductRunSettings): Promise<number | null>;
  /**
   * What each request did to the run's stock (takes, give-backs), by request id, as the store noted it
   * in the step that moved the stock. Absent where the store keeps none of its own: a MySQL row commits
   * the stock and the order in one transaction, so its orders are its moves.
   */
  moves?(settings: ProductRunSettings): Promise<StockMovesRead>;
  /**
   * The lab's "break stale lock" action: deletes this run's lock(s) of the product, whoever holds them,
   * and says how many it removed. For a lock a dead holder left with no expiry; a live holder loses its
   * lock too. Absent on strategies that hold no lock of their own to break.
   */
  breakLocks?(settings: ProductRunSettings): Promise<number>;
}

/**
 * Where a strategy's order streams live: the lab's Redis (the default), or a Redis Cluster whose
 * segments each append to a stream under their own hash tag. Each host lists its streams in a set of
 * its own (StockKeys.orderStreams), which every instance's writer reads.
 */
export interface OrderStreamHost {
  /** A name for logs and the writer's connection errors. */
  readonly name: string;
  readonly redis: Redis;
  /**
   * Whether one XREADGROUP may read all the host's streams together: on one Redis, yes; on a Cluster a
   * command may only name keys of one slot, so each stream is read on its own.
   */
  readonly readsTogether: boolean;
}

/** A strategy's own order streams (StockStrategy.orderStreams): their host, and a run's streams on it. */
export interface StrategyOrderStreams {
  /** Whether this process is given the host's service (its address variable): only then do its writers read it. */
  readonly configured: boolean;
  /** The host, connected at first use. */
  readonly host: OrderStreamHost;
  /** The streams the run's takes append to, each under the hash tag of the keys its take script writes. */
  of(settings: ProductRunSettings): Promise<string[]>;
}
