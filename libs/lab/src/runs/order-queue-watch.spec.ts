import type { OrderWriteFigures, Reconciliation } from '@oversell/contracts';
import { OrderStreams, OrderStreamWriter, OrderWriteProcessor, OrderWriteQueue } from '@oversell/stock';
import { freshProductId, useStockTestApp } from '@oversell/stock/testing';
import { UnrecoverableError } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LockHistory } from '../figures/lock-history';
import type { RunFigures } from '../figures/run-figures.reader';
import { OrderQueueWatch } from './order-queue-watch';
import type { RunEntity } from './run.entity';
import { StrategyTarget, StrategyTargets } from './run-target';

/**
 * A queued run's write-queue figures on the real Redis (BullMQ) and MariaDB: they count the run's own
 * orders, not the whole queue the lab's runs share, and the drain is timed from the end of the load.
 * This process writes no queued order until a test starts its writer.
 */
const lab = useStockTestApp({ writeQueuedOrders: false });
const queue = () => lab.app.app.get(OrderWriteQueue);
const writer = () => lab.app.app.get(OrderWriteProcessor);
const watchOf = (runId: string) => new OrderQueueWatch(queue(), Math.floor(Date.now() / 1000), runId);

/** A product reset for queued orders (a run of its own) with `orders` units sold: their jobs wait in the queue. */
async function queuedRun(orders: number): Promise<{ productId: number; runId: string }> {
  const productId = freshProductId();
  const { runId } = await lab.app.reset.reset(productId, { stock: 10, strategy: 'lua-decrement', orderWrite: 'queued' });
  for (let i = 0; i < orders; i++) expect((await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })).result.outcome).toBe('sold');
  return { productId, runId };
}

/** Takes the oldest waiting job and fails it for good, as a job whose retries ran out: it is kept in the queue. */
async function failOldestForGood(): Promise<void> {
  const job = await writer().worker.getNextJob('test-token', { block: false });
  expect(job).toBeDefined();
  await job!.moveToFailed(new UnrecoverableError('retries ran out'), 'test-token');
}

/** What the run executor's reconciliation reports for the product, given the run's write figures. */
async function reconciliationOf(productId: number, orderWrite: OrderWriteFigures): Promise<Reconciliation> {
  // The step of the run's measuring that turns the figures into the run's books: its strategy target's.
  const targets = new StrategyTargets(undefined as never, lab.app.inventory, queue(), undefined as never, undefined as never, undefined as never, undefined as never);
  const target = new StrategyTarget({ productId } as RunEntity, 'lua-decrement', undefined, undefined as never, targets);
  return target.reconcile({ lockEventsDropped: 0 } as RunFigures, { holdings: [] } as unknown as LockHistory, orderWrite);
}

it('counts only the run\'s own orders: jobs left by an earlier run, written or failed for good, are not its figures', async () => {
  const earlier = await queuedRun(3);
  await failOldestForGood();
  const current = await queuedRun(2);

  // Nothing writes: both runs' orders stay queued, the earlier run's first failed for good.
  expect(await watchOf(current.runId).drain(0)).toMatchObject({ stillQueued: 2, failed: 0 });
  const earlierBounded = await watchOf(earlier.runId).drain(0);
  expect(earlierBounded).toMatchObject({ stillQueued: 2, failed: 1 });
  // A job failed for good is kept in the queue, its order not written: the books still find it queued.
  const earlierBooks = await reconciliationOf(earlier.productId, earlierBounded);
  expect(earlierBooks.ordersStillQueued).toBe(3);
  expect(earlierBooks.moves?.takenWithoutOrder.count).toBe(3);

  writer().start();
  const drained = await watchOf(current.runId).drain(30_000);

  expect(drained).toMatchObject({ stillQueued: 0, failed: 0 });
  expect((await reconciliationOf(current.productId, drained)).ordersStillQueued).toBe(0);
  const earlierDrained = await watchOf(earlier.runId).drain(0);
  expect(earlierDrained).toMatchObject({ stillQueued: 0, failed: 1 });
  expect((await reconciliationOf(earlier.productId, earlierDrained)).ordersStillQueued).toBe(1);
});

it('times the drain from the end of the load: the time the queue stayed full before drain() (the instances\' flush) counts', async () => {
  await writer().worker.pause();
  const run = await queuedRun(3);
  const loadEndedAt = Date.now();
  const watch = watchOf(run.runId);
  // As the instances' flush does after the load, before the drain starts: here with no writer, so the queue stays full.
  await sleep(1000);
  const heldMs = Date.now() - loadEndedAt;

  // Its bound (300 ms) passed during the hold: the orders are reported still queued.
  const bounded = await watch.drain(300, loadEndedAt);
  expect(bounded.drainMs).toBeGreaterThanOrEqual(heldMs);
  expect(bounded).toMatchObject({ stillQueued: 3, failed: 0 });

  writer().worker.resume();
  const drained = await watch.drain(30_000, loadEndedAt);
  expect(drained.drainMs).toBeGreaterThanOrEqual(heldMs);
  expect(drained).toMatchObject({ stillQueued: 0, failed: 0 });
});

it("waits for a streamed run's orders, bounded, and reports those still in its stream until a writer has inserted them", async () => {
  const streams = lab.app.app.get(OrderStreams);
  const productId = freshProductId();
  const { runId } = await lab.app.reset.reset(productId, { stock: 10, strategy: 'lua-decrement', orderWrite: 'stream' });
  for (let i = 0; i < 3; i++) expect((await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })).result.outcome).toBe('sold');
  const streamWatch = () => new OrderQueueWatch(streams, Math.floor(Date.now() / 1000), runId);

  // No stream writer runs here: the bound passes with the run's three orders still in its stream.
  const bounded = await streamWatch().drain(0);
  expect(bounded).toMatchObject({ stillQueued: 3, failed: 0, peakDepth: 3 });
  const books = await reconciliationOf(productId, bounded);
  expect(books.ordersStillQueued).toBe(3);
  expect(books.moves?.takenWithoutOrder.count).toBe(3);

  const writer = lab.app.app.get(OrderStreamWriter);
  writer.start();
  try {
    const drained = await streamWatch().drain(30_000);
    expect(drained).toMatchObject({ stillQueued: 0, failed: 0 });
    const after = await reconciliationOf(productId, drained);
    expect(after.ordersStillQueued).toBe(0);
    expect(after.moves?.takenWithoutOrder.count).toBe(0);
  } finally {
    await writer.stop();
  }
});
