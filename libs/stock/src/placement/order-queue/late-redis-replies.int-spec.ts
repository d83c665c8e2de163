import { CuttableProxy, createStockTestApp, freshProductId, placeAtOnce, testRedisOptions, until, useStockTestApp, type StockTestApp } from '../../testing';
import type { QueuedOrder } from '../order-recorder';
import { OrderBatches } from './order-batches';
import { OrderWriteProcessor } from './order-write.processor';
import { OrderWriteQueue } from './order-write-queue';

/**
 * An order writer that keeps the lock of every job it took while its Redis answers slowly (a loaded
 * instance: 10–30 ms per round trip under a 500-client sale). BullMQ renews a job's lock only once
 * the job has a processing slot; a job it fetched ahead waits for one untracked, about one fetch
 * round trip per job ahead of it. With too many slots that wait outlasted the 5 s lock: the job was
 * handed to a writer again as stalled and written twice (the second INSERT changes nothing), and
 * its first writer logged "Missing lock" for it.
 */
const lab = useStockTestApp({ writeQueuedOrders: false });
const ORDERS = 400;
const REPLY_DELAY_MS = 30;

let proxy: CuttableProxy;
let writer: StockTestApp;

beforeAll(async () => {
  const redis = testRedisOptions();
  proxy = new CuttableProxy(redis.host ?? '127.0.0.1', redis.port ?? 6379);
  await proxy.start();
  // A second instance on the same keys whose Redis is behind the proxy; it writes the queued orders.
  writer = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId: 'writer-behind-slow-redis', writeQueuedOrders: false, redis: { ...redis, port: proxy.port } });
});

afterAll(async () => {
  await writer?.close();
  await proxy?.stop();
});

it('keeps the lock of every job it holds while Redis answers 30 ms late, and writes each order at its first attempt', async () => {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: ORDERS, strategy: 'lua-decrement', orderWrite: 'queued' });
  expect(await placeAtOnce(lab.app, { productId, strategy: 'lua-decrement', count: ORDERS })).toEqual(Array(ORDERS).fill('sold'));

  const processed = new Map<string, number>();
  const batches = writer.app.get(OrderBatches);
  const write = batches.write.bind(batches);
  jest.spyOn(batches, 'write').mockImplementation((order: QueuedOrder) => {
    processed.set(order.requestId, (processed.get(order.requestId) ?? 0) + 1);
    return write(order);
  });
  const lockErrors: string[] = [];
  const processor = writer.app.get(OrderWriteProcessor);
  processor.worker.on('error', (error) => lockErrors.push(error.message));
  processor.worker.on('stalled', (jobId) => lockErrors.push(`stalled ${jobId}`));

  proxy.delayReplies(REPLY_DELAY_MS);
  processor.start();
  await until(async () => (await lab.app.app.get(OrderWriteQueue).backlog()).depth === 0, 'the writer behind the slow Redis drained the queue', 90_000);

  expect(lockErrors).toEqual([]);
  expect(processed.size).toBe(ORDERS);
  expect([...processed.values()].filter((times) => times > 1)).toEqual([]);
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: ORDERS, orders: ORDERS, oversold: 0, lost: 0, storesAgree: true });
}, 120_000);
