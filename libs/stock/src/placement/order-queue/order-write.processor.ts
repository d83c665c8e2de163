import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { reportQueueErrors } from '../../redis/connection-trouble';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import type { QueuedOrder } from '../order-recorder';
import { ORDER_BATCH_MAX, OrderBatches } from './order-batches';
import { ORDER_WRITE_QUEUE } from './order-write-queue';

/** How each instance's order writer takes jobs (see below); also what order-write-job-cost measures BullMQ with. */
export const ORDER_WRITER_OPTIONS = { concurrency: ORDER_BATCH_MAX, lockDuration: 5000, stalledInterval: 5000, maxStalledCount: 100 } as const;

/**
 * Every instance's order writer (unless StockOptions.writeQueuedOrders is false): holds up to a batch
 * of jobs at once and writes them together. A writer that dies stops renewing its jobs' locks; after
 * at most lock + stalled-check interval (10 s) another writer takes them again, and the INSERT skips
 * the rows the dead one wrote. maxStalledCount is high because a stalled order is still an order.
 */
@Processor(ORDER_WRITE_QUEUE, { ...ORDER_WRITER_OPTIONS, autorun: false })
export class OrderWriteProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly batches: OrderBatches,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.options.writeQueuedOrders !== false) this.start();
  }

  /** Starts taking jobs (at bootstrap, or later for a process started with writeQueuedOrders false). */
  start(): void {
    void this.worker.run();
  }

  process(job: Job<QueuedOrder>): Promise<void> {
    return this.batches.write(job.data);
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    reportError(error);
  }
}

const reportError = reportQueueErrors('order writer');
