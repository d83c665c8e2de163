import type { QueuedOrderView } from '@oversell/contracts';
import { randomUUID } from 'node:crypto';
import { createStockTestApp, freshProductId, runOrdersAcrossProcesses, until, useStockTestApp } from '../../testing';
import { IdempotencyKeyReusedError } from '../../errors';
import { IdempotencyKeys } from '../idempotency-keys';
import { OrderRecorder, type QueuedOrder } from '../order-recorder';
import { OrderWriteProcessor } from './order-write.processor';
import { OrderWriteQueue } from './order-write-queue';

/**
 * orderWrite 'queued' on the real Redis and MariaDB: the answer comes from the queue, the row from an
 * order writer later. This process writes nothing until a test starts its writer, so a queued order
 * is seen waiting before it is seen written.
 */
const lab = useStockTestApp({ writeQueuedOrders: false });
const queue = () => lab.app.app.get(OrderWriteQueue);

const writer = () => lab.app.app.get(OrderWriteProcessor);

/** Holds this process's writer back (if an earlier test started it), so orders are seen queued. */
async function holdWriter(): Promise<void> {
  if (writer().worker.isRunning()) await writer().worker.pause();
}

/** Starts (or resumes) this process's writer and waits until the queue holds no unwritten order. */
async function drained(): Promise<void> {
  // BullMQ's resume also starts a worker that never ran, or whose loop a pause ended.
  writer().worker.resume();
  await until(async () => (await queue().backlog()).depth === 0, 'the order-write queue drained', 30_000);
}

it('answers a sold order from the queue, and a writer writes its row afterwards', async () => {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement', orderWrite: 'queued' });

  const { result } = await lab.app.placement.place({ productId, quantity: 2, strategy: 'lua-decrement' });

  expect(result.outcome).toBe('sold');
  const order = (result as { order: QueuedOrderView }).order;
  expect(order).toMatchObject({ id: null, queued: true, productId, quantity: 2 });
  const recorder = lab.app.app.get(OrderRecorder);
  expect(await recorder.findByRequestId(order.requestId)).toBeNull();
  expect(await queue().backlog()).toMatchObject({ depth: 1 });
  // Until written, the take shows as a take without an order: why the reconciliation waits for the drain.
  expect((await lab.app.inventory.inventory(productId)).moves?.takenWithoutOrder.count).toBe(1);

  await drained();

  expect(await recorder.findByRequestId(order.requestId)).toMatchObject({ productId, quantity: 2, runId: order.runId });
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 2, orders: 1, remaining: 3, oversold: 0, lost: 0, storesAgree: true });
});

it('queues an order with an idempotency key claimed in Redis: a replay answers the first order, queued or written, and takes nothing', async () => {
  const productId = freshProductId();
  const idempotencyKey = `key-${productId}`;
  await holdWriter();
  await lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement', orderWrite: 'queued' });

  const first = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey });
  const replay = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey });

  const firstOrder = (first.result as { order: QueuedOrderView }).order;
  expect(firstOrder).toMatchObject({ queued: true, idempotencyKey, replayed: false });
  expect(replay.result).toMatchObject({ outcome: 'sold', order: { queued: true, requestId: firstOrder.requestId, replayed: true } });
  await expect(lab.app.placement.place({ productId, quantity: 2, strategy: 'lua-decrement', idempotencyKey })).rejects.toThrow(IdempotencyKeyReusedError);
  await drained();
  const afterWrite = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey });
  expect(afterWrite.result).toMatchObject({ outcome: 'sold', order: { id: expect.any(Number), idempotencyKey, replayed: true } });
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 1, orders: 1, remaining: 4, lost: 0, storesAgree: true });
});

it('writes exactly one row per sold order when three OS processes sell and write at once', async () => {
  const productId = freshProductId();
  const stock = 300;
  await lab.app.reset.reset(productId, { stock, strategy: 'lua-decrement', orderWrite: 'queued' });

  // Each process writes queued orders too (its own StockModule's writer) while it sells.
  const { outcomes, errors } = await runOrdersAcrossProcesses({ processes: 3, requestsPerProcess: 150, inFlight: 30, keyPrefix: lab.keyPrefix, productId, strategy: 'lua-decrement' });
  await drained();

  expect(errors).toEqual([]);
  expect(outcomes.sold).toBe(stock);
  expect(outcomes.sold_out).toBe(150);
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: stock, orders: stock, remaining: 0, oversold: 0, lost: 0, storesAgree: true });
  expect((await queue().backlog()).failed).toBe(0);
  // Three ts-node processes starting on a loaded 2-core machine take most of it.
}, 180_000);

it("writes queued orders keyed alike but for case as two orders, and never relabels a written order with a later request's id", async () => {
  const recorder = lab.app.app.get(OrderRecorder);
  const productId = freshProductId();
  const { runId } = await lab.app.reset.reset(productId, { stock: 5, strategy: 'lua-decrement', orderWrite: 'queued' });
  const key = `case-${randomUUID()}`;
  const order = (idempotencyKey: string): QueuedOrder => ({ productId, quantity: 1, strategy: 'lua-decrement', runId, idempotencyKey, requestId: randomUUID(), queuedAt: Date.now() });
  const [upper, lower, later] = [order(key.toUpperCase()), order(key), order(key)];

  await recorder.recordQueued([upper, lower]);
  // Its key already names `lower` (a claim that expired, or that Redis forgot): this row cannot be written.
  await recorder.recordQueued([later]);

  expect(await recorder.findByRequestId(upper.requestId)).toMatchObject({ idempotencyKey: key.toUpperCase() });
  expect(await recorder.findByRequestId(lower.requestId)).toMatchObject({ idempotencyKey: key });
  expect(await recorder.findByRequestId(later.requestId)).toBeNull();
});

it("lets go of a queued order's idempotency claim only for the request that holds it", async () => {
  const keys = lab.app.app.get(IdempotencyKeys);
  const key = `claim-${randomUUID()}`;
  const [holder, other] = [randomUUID(), randomUUID()];
  expect(await keys.claim(key, holder)).toBe(true);
  expect(await keys.claim(key, other)).toBe(false);
  // The holder's claim sent again (a re-sent command) still holds.
  expect(await keys.claim(key, holder)).toBe(true);

  await keys.release(key, other);
  expect(await keys.claimedBy(key)).toBe(holder);
  await keys.release(key, holder);
  expect(await keys.claimedBy(key)).toBeNull();
  expect(await keys.claim(key, other)).toBe(true);
});

it("releases a process's first claim in the same tick as its other commands, every answer its own", async () => {
  // A process that has released no claim yet (and writes nothing: the other tests' orders stay queued).
  const fresh = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId: 'first-release', writeQueuedOrders: false });
  try {
    const keys = fresh.app.get(IdempotencyKeys);
    const [released, held] = [`first-release-${randomUUID()}`, `held-${randomUUID()}`];
    const [holder, other] = [randomUUID(), randomUUID()];
    expect(await keys.claim(released, holder)).toBe(true);
    expect(await keys.claim(held, other)).toBe(true);

    // One tick, one auto-pipeline: a GET opens it, then the process's first release joins it.
    const answers = await Promise.all([keys.claimedBy(held), keys.release(released, holder), keys.claimedBy(held)]);

    expect(answers).toEqual([other, undefined, other]);
    expect(await keys.claimedBy(released)).toBeNull();
  } finally {
    await fresh.close();
  }
});
