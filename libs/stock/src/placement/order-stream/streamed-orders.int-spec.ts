import type { ProductRunSettings, QueuedOrderView, StrategyName } from '@oversell/contracts';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuplicateIdempotencyKeyError, OrderWriteUnsupportedError, StockStoreLostError } from '../../errors';
import { StockKeys } from '../../redis/stock-keys';
import { freshProductId, placeOrderAndDieAt, runOrdersAcrossProcesses, until, useStockInstanceBehindMysqlProxy, useStockTestApp } from '../../testing';
import { OrderRecorder } from '../order-recorder';
import { OrderStreamWriter } from './order-stream-writer';
import { OrderStreams } from './order-streams';

/**
 * orderWrite 'stream' on the real Redis and MariaDB: the take script appends the order, the answer comes
 * when it returns, and a stream writer inserts the row later. This process writes nothing until a test
 * starts its writer, so an order is seen in the stream before it is seen written.
 */
const lab = useStockTestApp({ writeQueuedOrders: false });
const streams = () => lab.app.app.get(OrderStreams);
const writer = () => lab.app.app.get(OrderStreamWriter);
const ORDERS = 20;

async function streamedSale(stock: number, strategy: StrategyName = 'lua-decrement'): Promise<ProductRunSettings> {
  return lab.app.reset.reset(freshProductId(), { stock, strategy, orderWrite: 'stream' });
}

async function drained(): Promise<void> {
  writer().start();
  await until(async () => (await streams().backlog()).depth === 0, 'the order streams drained', 30_000);
}

/** Every unit taken has exactly one order, and every order took its units (orders of one unit, unless `orders` says). */
async function everyTakeHasOneOrder(productId: number, sold: number, orders = sold): Promise<void> {
  const inventory = await lab.app.inventory.inventory(productId);
  expect(inventory).toMatchObject({ sold, orders, oversold: 0, lost: 0, storesAgree: true });
  expect(inventory.moves).toMatchObject({ takenWithoutOrder: { count: 0 }, orderedWithoutTake: { count: 0 } });
}

it('appends the order in the script that takes the stock: answered before any row, written once by a writer', async () => {
  const { productId, runId } = await streamedSale(5);

  const { result } = await lab.app.placement.place({ productId, quantity: 2, strategy: 'lua-decrement' });

  const order = (result as { order: QueuedOrderView }).order;
  expect(order).toMatchObject({ id: null, queued: true, productId, quantity: 2, runId });
  const stream = StockKeys.of(lab.keyPrefix, { productId, runId }).orders;
  expect(await lab.app.redis.xlen(stream)).toBe(1);
  const recorder = lab.app.app.get(OrderRecorder);
  expect(await recorder.findByRequestId(order.requestId)).toBeNull();
  // A sold-out order appends nothing.
  await lab.app.placement.place({ productId, quantity: 4, strategy: 'lua-decrement' });
  expect(await lab.app.redis.xlen(stream)).toBe(1);

  await drained();
  await writer().stop();

  expect(await recorder.findByRequestId(order.requestId)).toMatchObject({ productId, quantity: 2, runId });
  // Written entries are deleted: the stream keeps only what is not written yet.
  expect(await lab.app.redis.xlen(stream)).toBe(0);
  await everyTakeHasOneOrder(productId, 2, 1);
});

// The key is claimed in the script that takes the stock and appends the order: the one-script takes and a lock's stock write (plain and fenced); on the Cluster, by the placement before the take.
it.each<StrategyName>(['lua-decrement', 'decr-check', 'watchdog', 'watchdog-fenced', 'segmented-cluster'])(
  '%s claims an idempotency key in its take: copies sent at once sell one unit, refused while the first order is in the stream, answered with it once written',
  async (strategy) => {
    const { productId } = await streamedSale(5, strategy);
    const order = { productId, quantity: 1, strategy, idempotencyKey: `stream-key-${productId}` };

    const copies = await Promise.allSettled(Array.from({ length: 3 }, () => lab.app.placement.place(order)));
    expect(copies.filter((copy) => copy.status === 'fulfilled').map((copy) => copy.value.result.outcome)).toEqual(['sold']);
    for (const copy of copies) if (copy.status === 'rejected') expect(copy.reason).toBeInstanceOf(DuplicateIdempotencyKeyError);
    await expect(lab.app.placement.place(order)).rejects.toThrow(DuplicateIdempotencyKeyError);
    await drained();
    await writer().stop();

    const replay = await lab.app.placement.place(order);
    expect(replay.result).toMatchObject({ outcome: 'sold', order: { id: expect.any(Number), idempotencyKey: order.idempotencyKey, replayed: true } });
    await everyTakeHasOneOrder(productId, 1);
  },
);

it('leaves no claim on a key whose streamed take found no stock: a retry with it is served once there is stock', async () => {
  const { productId } = await streamedSale(0);
  const order = { productId, quantity: 1, strategy: 'lua-decrement' as const, idempotencyKey: `stream-sold-out-${productId}` };
  expect((await lab.app.placement.place(order)).result.outcome).toBe('sold_out');
  await lab.app.reset.reset(productId, { stock: 1, strategy: 'lua-decrement', orderWrite: 'stream' });
  expect((await lab.app.placement.place(order)).result.outcome).toBe('sold');
});

it('writes an entry replayed in the stream (the same request id appended again, in its batch and in a later one) once', async () => {
  const { productId, runId } = await streamedSale(5);
  const { result } = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' });
  const order = (result as { order: QueuedOrderView }).order;
  const stream = StockKeys.of(lab.keyPrefix, { productId, runId }).orders;
  // A producer that re-sent its append (a retried script, a replayed log): the same fields under a new entry id.
  const [[, fields]] = await lab.app.redis.xrange(stream, '-', '+');
  await lab.app.redis.xadd(stream, '*', ...fields);
  await drained();
  await lab.app.redis.xadd(stream, '*', ...fields);
  await drained();
  await writer().stop();

  expect(await lab.app.app.get(OrderRecorder).findByRequestId(order.requestId)).toMatchObject({ productId, quantity: 1, runId });
  // One row, one unit: the copies were acknowledged and deleted without a second order.
  await everyTakeHasOneOrder(productId, 1);
  expect(await lab.app.redis.xlen(stream)).toBe(0);
});

it('refuses the stream for a strategy whose take is not one script', async () => {
  await expect(lab.app.reset.reset(freshProductId(), { stock: 5, strategy: 'db-conditional', orderWrite: 'stream' })).rejects.toThrow(OrderWriteUnsupportedError);
});

it('appends no order for a decr-check overdraft, whose units go back', async () => {
  const { productId, runId } = await streamedSale(1, 'decr-check');
  const outcomes = await Promise.all(Array.from({ length: 3 }, () => lab.app.placement.place({ productId, quantity: 1, strategy: 'decr-check' })));
  expect(outcomes.map((p) => p.result.outcome).sort()).toEqual(['sold', 'sold_out', 'sold_out']);
  expect(await lab.app.redis.xlen(StockKeys.of(lab.keyPrefix, { productId, runId }).orders)).toBe(1);
  await drained();
  await writer().stop();
  await everyTakeHasOneOrder(productId, 1);
});

it("refuses a take once the run's stream is gone, taking nothing: no order could be read from a stream no writer lists", async () => {
  const settings = await streamedSale(5);
  const { productId, runId } = settings;
  expect(await streams().close(settings)).toBe(true);

  const { result } = await lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' });

  expect(result).toMatchObject({ outcome: 'error', error: expect.any(StockStoreLostError) });
  expect(await lab.app.redis.get(StockKeys.of(lab.keyPrefix, { productId, runId }).stock)).toBe('5');
  expect(await lab.app.redis.exists(StockKeys.of(lab.keyPrefix, { productId, runId }).orders)).toBe(0);
});

it("keeps an earlier run's stream through a reset while it holds orders, and a writer drops it once they are written", async () => {
  const earlier = await streamedSale(5);
  expect((await lab.app.placement.place({ productId: earlier.productId, quantity: 1, strategy: 'lua-decrement' })).result.outcome).toBe('sold');
  const earlierStream = StockKeys.of(lab.keyPrefix, earlier).orders;

  const { runId } = await lab.app.reset.reset(earlier.productId, { stock: 5, strategy: 'lua-decrement', orderWrite: 'stream' });

  expect(await lab.app.redis.xlen(earlierStream)).toBe(1);
  expect(await lab.app.redis.sismember(streams().registry, earlierStream)).toBe(1);
  writer().start();
  await until(async () => !(await lab.app.redis.sismember(streams().registry, earlierStream)), "the earlier run's written-out stream is dropped", 30_000);
  await writer().stop();
  expect(await lab.app.redis.exists(earlierStream)).toBe(0);
  expect(await lab.app.app.get(OrderRecorder).soldInRun(earlier.productId, earlier.runId)).toEqual({ units: 1, orders: 1 });
  // The current run's stream, empty, stays: its run may still sell.
  expect(await lab.app.redis.sismember(streams().registry, StockKeys.of(lab.keyPrefix, { productId: earlier.productId, runId }).orders)).toBe(1);
});

// segmented-cluster: a stream per segment on the Redis Cluster, read one stream per command.
it.each<StrategyName>(['lua-decrement', 'segmented-cluster'])('%s: claims the batch of a writer SIGKILLed between its INSERT and the ack, and writes no order twice', async (strategy) => {
  const { productId } = await streamedSale(ORDERS + 5, strategy);
  const placements = await Promise.all(Array.from({ length: ORDERS }, () => lab.app.placement.place({ productId, quantity: 1, strategy })));
  expect(placements.map((p) => p.result.outcome)).toEqual(Array(ORDERS).fill('sold'));

  const child = fork(join(__dirname, '../../testing/crashing-order-writer.ts'), [lab.keyPrefix, 'order-batch-written'], {
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../../../tsconfig.json') },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  expect(signal).toBe('SIGKILL');

  // It died with its batch's rows committed and none acknowledged: the entries wait, delivered to a dead writer.
  expect((await lab.app.inventory.inventory(productId)).orders).toBe(ORDERS);
  expect(await streams().backlog()).toMatchObject({ depth: ORDERS, pending: ORDERS });
  await drained();
  await writer().stop();
  await everyTakeHasOneOrder(productId, ORDERS);
}, 120_000);

it.each<StrategyName>(['lua-decrement', 'uuid-lua', 'watchdog-fenced', 'segmented', 'segmented-cluster'])('%s: an instance SIGKILLed right after its take leaves its order in the stream, written once', async (strategy) => {
  const { productId } = await streamedSale(5, strategy);

  await placeOrderAndDieAt({ keyPrefix: lab.keyPrefix, productId, strategy, at: 'stock-written' });

  await drained();
  await writer().stop();
  await everyTakeHasOneOrder(productId, 1);
}, 60_000);

it.each<StrategyName>(['lua-decrement', 'segmented-cluster'])('%s: writes exactly one row per sold unit when three OS processes sell and write at once', async (strategy) => {
  const stock = 300;
  const { productId } = await streamedSale(stock, strategy);

  // Each process's StockModule runs a stream writer too, in the one consumer group (of each stream).
  const { outcomes, errors } = await runOrdersAcrossProcesses({ processes: 3, requestsPerProcess: 150, inFlight: 30, keyPrefix: lab.keyPrefix, productId, strategy });
  await drained();
  await writer().stop();

  expect(errors).toEqual([]);
  expect(outcomes.sold).toBe(stock);
  await everyTakeHasOneOrder(productId, stock);
}, 180_000);

it('segmented-cluster: a backlog spread over 12 segments\' streams on the Cluster drains to one row per order (its drain time printed)', async () => {
  const SEGMENTS = 12;
  const BACKLOG = 3000;
  const { productId } = await lab.app.reset.reset(freshProductId(), { stock: BACKLOG, strategy: 'segmented-cluster', orderWrite: 'stream', segments: SEGMENTS, lockTtlMs: 5000 });
  // The backlog first, no writer running: 60 orders in flight at a time, each segment's lock taken in turn.
  for (let placed = 0; placed < BACKLOG; placed += 60) {
    const outcomes = await Promise.all(Array.from({ length: Math.min(60, BACKLOG - placed) }, () => lab.app.placement.place({ productId, quantity: 1, strategy: 'segmented-cluster' })));
    expect(outcomes.filter((placement) => placement.result.outcome !== 'sold')).toEqual([]);
  }
  expect((await streams().backlog()).depth).toBe(BACKLOG);

  const cpu = process.cpuUsage();
  const startedAt = performance.now();
  await drained();
  const drainMs = performance.now() - startedAt;
  const { user, system } = process.cpuUsage(cpu);
  await writer().stop();
  console.log(`segmented-cluster, ${BACKLOG} streamed orders over ${SEGMENTS} segments drained in ${drainMs.toFixed(0)} ms (${((BACKLOG / drainMs) * 1000).toFixed(0)} rows/s), this process ${((user + system) / BACKLOG).toFixed(1)} µs CPU per order; load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  await everyTakeHasOneOrder(productId, BACKLOG);
}, 180_000);

describe('MySQL unreachable for 5 s', () => {
  // A second instance on the same keys whose MySQL goes through the proxy: the only writer running.
  const { proxy } = useStockInstanceBehindMysqlProxy(lab, 'stream-writer-behind-proxy');
  const OUTAGE_MS = 5000;

  it('keeps the orders in the stream while MySQL is gone, and writes each once after it returns', async () => {
    await proxy.cut();
    const cutAt = Date.now();
    const { productId, runId } = await streamedSale(ORDERS + 5);
    const placements = await Promise.all(Array.from({ length: ORDERS }, () => lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })));
    expect(placements.map((p) => p.result.outcome)).toEqual(Array(ORDERS).fill('sold'));

    // The proxied writer has read a batch and cannot insert it: delivered, unacknowledged, none written.
    await until(async () => (await streams().backlog()).pending > 0, 'the writer holds a batch it cannot write', 10_000);
    // The outage itself lasts OUTAGE_MS, whatever the writer does meanwhile.
    await sleep(OUTAGE_MS - (Date.now() - cutAt));
    expect((await streams().runBacklog(runId)).stillQueued).toBe(ORDERS);
    expect((await lab.app.inventory.inventory(productId)).orders).toBe(0);
    expect((await streams().backlog()).oldestAgeMs).toBeGreaterThanOrEqual(OUTAGE_MS / 2);

    await proxy.restore();
    await until(async () => (await streams().backlog()).depth === 0, 'the stream drains once MySQL is back', 30_000);
    await everyTakeHasOneOrder(productId, ORDERS);
  }, 60_000);
});
