import { UnrecoverableError } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { useStockTestApp } from '../../testing';
import { OrderWriteProcessor } from './order-write.processor';
import { OrderWriteQueue } from './order-write-queue';

/**
 * One run's orders in the order-write queue the lab's runs share, on the real Redis (BullMQ): counted
 * by the jobs' run id, over more jobs than one page, with a job failed for good told from the waiting
 * ones. Nothing writes the jobs here.
 */
const lab = useStockTestApp({ writeQueuedOrders: false });
const queue = () => lab.app.app.get(OrderWriteQueue);

const enqueue = (runId: string) => queue().enqueue({ productId: 1, quantity: 1, strategy: 'lua-decrement', runId, idempotencyKey: null, requestId: randomUUID() });

it('counts a run\'s own jobs among another run\'s, over several pages, its job failed for good apart', async () => {
  const earlier = randomUUID();
  const current = randomUUID();
  await enqueue(current);
  // As a job whose retries ran out: taken by a writer and failed for good, then kept.
  const job = await lab.app.app.get(OrderWriteProcessor).worker.getNextJob('test-token', { block: false });
  expect(job?.data.runId).toBe(current);
  await job!.moveToFailed(new UnrecoverableError('retries ran out'), 'test-token');
  // More than two pages of the earlier run's jobs, the current run's among them.
  for (let i = 0; i < 3; i++) {
    await Promise.all(Array.from({ length: 400 }, () => enqueue(earlier)));
    await enqueue(current);
  }

  expect(await queue().backlog()).toMatchObject({ depth: 1203, failed: 1 });
  expect(await queue().runBacklog(current)).toEqual({ stillQueued: 3, failed: 1 });
  expect(await queue().runBacklog(earlier)).toEqual({ stillQueued: 1200, failed: 0 });
  expect(await queue().runBacklog(randomUUID())).toEqual({ stillQueued: 0, failed: 0 });
});
