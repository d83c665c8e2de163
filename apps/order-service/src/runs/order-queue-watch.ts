import type { OrderQueuePoint, OrderWriteFigures } from '@oversell/contracts';
import type { OrderWriteQueue } from '@oversell/stock';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a queued run's reconciliation waits for the write queue to drain. Past it, the orders still
 * queued are reported (ordersStillQueued) rather than waited for: MySQL may be down for longer than a run.
 */
export const ORDER_DRAIN_TIMEOUT_MS = 30_000;
/** How often the drain looks at the queue again. */
const DRAIN_POLL_MS = 100;

/**
 * A queued run's order-write backlog: sampled each second of the load (as the remaining stock is), then
 * waited on until the queue is empty or the bound passes. The queue is Redis's, so every instance's
 * writers drain it and any instance can watch it.
 */
export class OrderQueueWatch {
  private readonly bySecond = new Map<number, OrderQueuePoint>();

  constructor(
    private readonly queue: OrderWriteQueue,
    private readonly startSecond: number,
  ) {}

  /** Reads the backlog now; a second's point keeps the highest of its samples, so a short peak is not overwritten. */
  async sample(): Promise<{ depth: number }> {
    const { depth, oldestAgeMs } = await this.queue.backlog();
    const t = Math.floor(Date.now() / 1000) - this.startSecond;
    const before = this.bySecond.get(t);
    this.bySecond.set(t, { t, depth: Math.max(depth, before?.depth ?? 0), lagMs: Math.max(oldestAgeMs, before?.lagMs ?? 0) });
    return { depth };
  }

  /** Waits until nothing of the queue is left unwritten, at most timeoutMs, sampling on the way. */
  async drain(timeoutMs = ORDER_DRAIN_TIMEOUT_MS): Promise<OrderWriteFigures> {
    const started = Date.now();
    while ((await this.sample()).depth > 0 && Date.now() - started < timeoutMs) await sleep(DRAIN_POLL_MS);
    const { depth, failed } = await this.queue.backlog();
    const backlog = [...this.bySecond.values()].sort((a, b) => a.t - b.t);
    return {
      backlog,
      peakDepth: Math.max(0, ...backlog.map((p) => p.depth)),
      peakLagMs: Math.max(0, ...backlog.map((p) => p.lagMs)),
      drainMs: Date.now() - started,
      stillQueued: depth,
      failed,
    };
  }
}
