import type { OrderQueuePoint, OrderWriteFigures } from '@oversell/contracts';
import type { OrderWriteQueue } from '@oversell/stock';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where a run's orders wait to be written: the BullMQ queue (queued) or the order streams (stream), read alike. */
export type OrderBacklogSource = Pick<OrderWriteQueue, 'backlog' | 'runBacklog'>;

/**
 * How long a queued run's reconciliation waits for the write queue to drain, from the end of the load
 * (the instances' flush counts). Past it, the run's orders still queued are reported (ordersStillQueued)
 * rather than waited for: MySQL may be down for longer than a run.
 */
export const ORDER_DRAIN_TIMEOUT_MS = 30_000;
/** How often the drain looks at the queue again. */
const DRAIN_POLL_MS = 100;

/**
 * A queued (or streamed) run's order-write backlog: sampled each second of the load (as the remaining stock is), then
 * waited on until the queue is empty or the bound passes. The queue is Redis's, so every instance's
 * writers drain it and any instance can watch it. The samples and the wait are the whole queue's (the
 * writers take jobs in order, so the run's orders are written once what was queued before them is);
 * what is left at the end is counted for the run alone, by its jobs' run id (a stream run: its own stream).
 */
export class OrderQueueWatch {
  private readonly bySecond = new Map<number, OrderQueuePoint>();

  /** Without a runId, what is left at the end is the whole queue's. */
  constructor(
    private readonly queue: OrderBacklogSource,
    private readonly startSecond: number,
    private readonly runId?: string,
  ) {}

  /** Reads the backlog now; a second's point keeps the highest of its samples, so a short peak is not overwritten. */
  async sample(): Promise<{ depth: number }> {
    const { depth, oldestAgeMs } = await this.queue.backlog();
    const t = Math.floor(Date.now() / 1000) - this.startSecond;
    const before = this.bySecond.get(t);
    this.bySecond.set(t, { t, depth: Math.max(depth, before?.depth ?? 0), lagMs: Math.max(oldestAgeMs, before?.lagMs ?? 0) });
    return { depth };
  }

  /**
   * Waits until nothing of the queue is left unwritten, at most timeoutMs after the load ended, sampling on
   * the way; drainMs counts from the load's end too. loadEndedAt (epoch ms) is when the load stopped,
   * before the instances' flush, whose seconds the writers drain through: now when not given.
   */
  async drain(timeoutMs = ORDER_DRAIN_TIMEOUT_MS, loadEndedAt = Date.now()): Promise<OrderWriteFigures> {
    while ((await this.sample()).depth > 0 && Date.now() - loadEndedAt < timeoutMs) await sleep(DRAIN_POLL_MS);
    const drainMs = Date.now() - loadEndedAt;
    const { stillQueued, failed } = await this.leftOver();
    const backlog = [...this.bySecond.values()].sort((a, b) => a.t - b.t);
    return {
      backlog,
      peakDepth: Math.max(0, ...backlog.map((p) => p.depth)),
      peakLagMs: Math.max(0, ...backlog.map((p) => p.lagMs)),
      drainMs,
      stillQueued,
      failed,
    };
  }

  /** The run's orders not written when the drain stopped: still queued, or failed for good. */
  private async leftOver(): Promise<Pick<OrderWriteFigures, 'stillQueued' | 'failed'>> {
    if (this.runId !== undefined) return this.queue.runBacklog(this.runId);
    const { depth, failed } = await this.queue.backlog();
    return { stillQueued: depth, failed };
  }
}

/** What of a queued run's orders the books still find in the queue: those not written yet and those failed for good (kept). */
export function ordersStillQueued({ stillQueued, failed }: Pick<OrderWriteFigures, 'stillQueued' | 'failed'>): number {
  return stillQueued + failed;
}
