import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { QueuedOrderView } from '@oversell/contracts';
import type { JobsOptions, Queue } from 'bullmq';
import { reportQueueErrors } from '../../redis/connection-trouble';
import { RedisConnections } from '../../redis/redis-connections';
import type { QueuedOrder } from '../order-recorder';

export const ORDER_WRITE_QUEUE = 'order-writes';

/** Where BullMQ keeps the order-write queue: beside the lab's other queues, under the key prefix. */
export const orderQueuePrefix = (keyPrefix: string) => `${keyPrefix}:bull`;

/**
 * Nothing lost: a batch that fails (MySQL unreachable) is retried every second for an hour before its
 * jobs fail for good, and a failed job is kept, so the reconciliation still finds it as queued.
 * Written jobs are removed: a run of 100k orders would otherwise keep 100k job hashes in Redis.
 */
const ORDER_WRITE_RETRY_MS = 1000;
const ORDER_WRITE_ATTEMPTS = 3600;
const JOB_OPTIONS: JobsOptions = {
  attempts: ORDER_WRITE_ATTEMPTS,
  backoff: { type: 'fixed', delay: ORDER_WRITE_RETRY_MS },
  removeOnComplete: true,
  removeOnFail: false,
};

/** The states of a job not yet written: the queue's depth counts these. */
const UNWRITTEN = ['waiting', 'active', 'delayed', 'prioritized'] as const;

/** The queue's backlog right now, the same in every instance (it is read from Redis). */
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

/** The producer side of orderWrite 'queued': an order sold in Redis becomes a job keyed by its request id. */
@Injectable()
export class OrderWriteQueue {
  constructor(
    @InjectQueue(ORDER_WRITE_QUEUE) private readonly queue: Queue<QueuedOrder>,
    private readonly connections: RedisConnections,
  ) {
    queue.on('error', reportQueueErrors('order-write queue'));
  }

  /**
   * Resolves once Redis holds the job (as durable as Redis is: with its AOF, across a restart). The job
   * id is the request id, so a second add of the same order (a retried command) adds nothing.
   */
  async enqueue(order: Omit<QueuedOrder, 'queuedAt'>): Promise<QueuedOrderView> {
    const queued: QueuedOrder = { ...order, queuedAt: Date.now() };
    await this.queue.add('order', queued, { ...JOB_OPTIONS, jobId: order.requestId });
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

  /** Which of these request ids still have a job in the queue: one pipelined EXISTS per id. */
  async stillQueued(requestIds: readonly string[]): Promise<Set<string>> {
    if (!requestIds.length) return new Set();
    const pipeline = this.connections.commands.pipeline();
    for (const id of requestIds) pipeline.exists(this.queue.toKey(id));
    const answers = (await pipeline.exec()) ?? [];
    return new Set(requestIds.filter((_id, i) => answers[i]?.[1] === 1));
  }

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
