/**
 * What the control plane reads of its host's settings (the rest it takes from the stock's options:
 * Redis, key prefix, instance id). The host validates them; the library never reads process.env.
 */
export interface LabOptions {
  instanceId: string;
  /** Where the run worker's load reaches this instance. */
  instanceUrl: string;
  port: number;
  /** Whether this instance takes runs off the queue. */
  runWorker: boolean;
  /** Runs queued and not yet started, at most (RUN_QUEUE_LIMIT). */
  runQueueLimit: number;
  /** Orders of each run whose critical section this instance traces (the first ones); 0 turns the trace off. */
  tracedOrders: number;
}

export const LAB_OPTIONS = Symbol('LAB_OPTIONS');
