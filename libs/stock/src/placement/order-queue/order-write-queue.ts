import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { QueuedOrderView } from '@oversell/contracts';
import type { JobsOptions, Queue } from 'bullmq';
import { reportQueueErrors } from '../../redis/connection-trouble';
import type { QueuedOrder } from '../order-recorder';

export const ORDER_WRITE_QUEUE = 'order-writes';

/** Where BullMQ keeps the order-write queue: beside the lab's other queues, under the key prefix. */
export const orderQueuePrefix = (keyPrefix: string) => `${keyPrefix}:bull`;

/**
 * Nothing lost: a batch that fails (MySQL unreachable) is retried every second for an hour before its
 * jobs fail for good, and a failed job is kept, so the reconciliation still finds it as queued (its
 * run's ordersStillQueued counts it, see runBacklog).
 * Written jobs are removed: a run of 100k orders would otherwise keep 100k job hashes in Redis.
 */
const ORDER_WRITE_RETRY_MS = 1000;
const ORDER_WRITE_ATTEMPTS = 3600;
export const ORDER_WRITE_JOB_OPTIONS: JobsOptions = {
  attempts: ORDER_WRITE_ATTEMPTS,
  backoff: { type: 'fixed', delay: ORDER_WRITE_RETRY_MS },
  removeOnComplete: true,
  removeOnFail: false,
};

/** The states of a job not yet written: the queue's depth counts these. */
const UNWRITTEN = ['waiting', 'active', 'delayed', 'prioritized'] as const;

/** Jobs read per page where one run's jobs are counted: the queue is read a page at a time, never whole. */
const RUN_JOBS_PAGE = 500;

/** The whole queue's backlog right now, every run's orders, the same in every instance (it is read from Redis). */
export interface OrderWriteBacklog {
  /** Orders queued and not yet written (waiting, being written, or waiting to be retried). */
  depth: number;
  /** Of those, the ones whose batch failed and that wait for their retry. */
  retrying: number;
  /** Orders whose jobs failed for good (their retries ran out): not written, kept for a look. */
  failed: number;
  /** Age of the oldest order not yet written, in ms; 0 with none. */
  oldestAgeMs: number;
}

/** One run's orders in the queue right now: its jobs are the ones whose order carries its run id. */
export interface RunOrderWrites {
  /** The run's orders queued and not yet written (waiting, being written, or waiting to be retried). */
  stillQueued: number;
  /** The run's orders whose jobs failed for good (their retries ran out): not written, kept in the queue. */
  failed: number;
}

/** The producer side of orderWrite 'queued': an order sold in Redis becomes a job keyed by its request id. */
@Injectable()
export class OrderWriteQueue {
  constructor(
    @InjectQueue(ORDER_WRITE_QUEUE) private readonly queue: Queue<QueuedOrder>,
  ) {
    queue.on('error', reportQueueErrors('order-write queue'));
  }

  /**
   * Resolves once Redis holds the job (as durable as Redis is: with its AOF, across a restart). The job
   * id is the request id, so a second add of the same order (a retried command) adds nothing.
   */
  async enqueue(order: Omit<QueuedOrder, 'queuedAt'>): Promise<QueuedOrderView> {
    const queued: QueuedOrder = { ...order, queuedAt: Date.now() };
    await this.queue.add('order', queued, { ...ORDER_WRITE_JOB_OPTIONS, jobId: order.requestId });
    return toQueuedView(queued);
  }

  /** The order's job, if it is still in the queue (not written yet, or failed for good). */
  async queued(requestId: string): Promise<QueuedOrderView | null> {
    const job = await this.queue.getJob(requestId);
    return job ? toQueuedView(job.data) : null;
  }

  /** The queued order that claimed an idempotency key, answered again to a replay (replayed: true). */
  async queuedByKey(requestId: string | null): Promise<QueuedOrderView | null> {
    const order = requestId ? await this.queued(requestId) : null;
    return order && { ...order, replayed: true };
  }

  /** The whole queue's backlog: what /metrics and a run's per-second samples show. */
  async backlog(): Promise<OrderWriteBacklog> {
    const counts = await this.queue.getJobCounts(...UNWRITTEN, 'failed');
    const depth = UNWRITTEN.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
    const failed = counts.failed ?? 0;
    const retrying = counts.delayed ?? 0;
    if (!depth) return { depth, retrying, failed, oldestAgeMs: 0 };
    // The oldest of each state's first job (asc): a retried job waits in delayed with its first timestamp.
    const oldest = await this.queue.getJobs([...UNWRITTEN], 0, 0, true);
    const queuedAt = Math.min(...oldest.map((job) => job.data.queuedAt));
    return { depth, retrying, failed, oldestAgeMs: Number.isFinite(queuedAt) ? Math.max(0, Date.now() - queuedAt) : 0 };
  }

  /**
   * One run's own orders in the queue, told from the jobs other runs left there (a drain that timed out,
   * jobs failed for good: removeOnFail is false, so these stay). A state is read only when the queue
   * has jobs in it, a page at a time; what is kept is the ids of the run's jobs seen, so a job that
   * moves on while it is read (waiting, then being written, then failed) counts once. Read newest
   * first (asc for the failed set, which grows at its end), so the jobs the writers take meanwhile do
   * not shift the pages not read yet; a job moved back while it is read (a retry leaving delayed) can
   * still be missed: the count is of a moment, as the depth is.
   */
  async runBacklog(runId: string): Promise<RunOrderWrites> {
    const counts = await this.queue.getJobCounts(...UNWRITTEN, 'failed');
    const seen = new Set<string>();
    let stillQueued = 0;
    // In the order a job moves: one leaving a state already read is found in the next.
    for (const state of UNWRITTEN) if (counts[state]) stillQueued += await this.countRunJobs(runId, state, seen);
    const failed = counts.failed ? await this.countRunJobs(runId, 'failed', seen) : 0;
    return { stillQueued, failed };
  }

  /** The run's jobs in one state not seen yet, read a page at a time until a page comes back empty. */
  private async countRunJobs(runId: string, state: (typeof UNWRITTEN)[number] | 'failed', seen: Set<string>): Promise<number> {
    let count = 0;
    for (let start = 0; ; start += RUN_JOBS_PAGE) {
      // A page can hold fewer (a job written since its id was read) or overlap the next: seen counts each job once.
      const page = await this.queue.getJobs([state], start, start + RUN_JOBS_PAGE - 1, state === 'failed');
      if (!page.length) return count;
      for (const job of page) {
        if (job.data.runId !== runId || !job.id || seen.has(job.id)) continue;
        seen.add(job.id);
        count += 1;
      }
    }
  }
}

function toQueuedView(order: QueuedOrder): QueuedOrderView {
  return {
    id: null,
    requestId: order.requestId,
    productId: order.productId,
    quantity: order.quantity,
    strategy: order.strategy,
    runId: order.runId,
    idempotencyKey: order.idempotencyKey,
    createdAt: new Date(order.queuedAt).toISOString(),
    replayed: false,
    queued: true,
  };
}
