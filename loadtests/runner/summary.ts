import type { LatencySummary, LoadProfile, StrategyName } from '@oversell/contracts';

/** Which endpoint the load hits: real orders, or the no-op that measures the stack's ceiling. */
export type LoadTarget = 'orders' | 'noop';
export const LOAD_TARGETS: readonly LoadTarget[] = ['orders', 'noop'];

/** Everything a load run needs, all serializable so it can cross a process boundary (see forkLoad). */
export interface LoadOptions {
  /** One or several base URLs (the proxy, or the instances directly); connections are spread over them. */
  urls: string[];
  target: LoadTarget;
  productId: number;
  /** The lab run's token (POST /api/runs answers it), sent as x-run-token: only requests carrying it count in the run. */
  runToken?: string;
  strategy: StrategyName;
  profile: LoadProfile;
  /** Send each order `copies` times at once (the double-click fault; see doubleClickOf); orders only. */
  doubleClick?: DoubleClick;
}

/** A buyer's double click: each order sent `copies` times at once, with one shared idempotency key or none. */
export interface DoubleClick {
  copies: number;
  idempotencyKey: boolean;
}

/** Progress, sent about once per second while a run is going. */
export interface LoadTick {
  elapsedSec: number;
  /** Responses received so far. */
  requests: number;
  /** Responses received during the last second. */
  lastSecondRequests: number;
  statusCounts: Record<string, number>;
  errors: number;
}

/**
 * What the load tool saw from the client side. Informational: the figures that decide a run are
 * collected by the service itself.
 */
export interface LoadSummary {
  driver: 'node' | 'k6';
  /** Responses received. */
  requests: number;
  /** Requests written to the wire (includes ones that timed out or were cut off at the end). */
  sent: number;
  /** A double-click run's clicks: orders meant, each sent DoubleClick.copies times (the Node runner counts them). */
  clicks?: number;
  durationSec: number;
  /** Responses by HTTP status code ("201", "409", ...). */
  statusCounts: Record<string, number>;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Responses per second over the whole run. */
  throughput: number;
  /** Response time in ms. */
  latency: LatencySummary;
  /** CPU the load tool's own process spent, in ms, when it ran in a process of its own (the Node runner forked). */
  cpuMs?: number;
}
