import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshProductId, until, useStockInstanceBehindMysqlProxy, useStockTestApp } from '../../testing';
import { OrderRecorder } from '../order-recorder';
import { OrderWriteProcessor } from './order-write.processor';
import { OrderWriteQueue } from './order-write-queue';

/**
 * Nothing lost, nothing doubled, when an order writer dies mid-batch or MySQL goes away, on the real
 * Redis and MariaDB. This process places the orders and writes none itself until a test says so.
 */
const lab = useStockTestApp({ writeQueuedOrders: false });
const queue = () => lab.app.app.get(OrderWriteQueue);
const ORDERS = 20;
const OUTAGE_MS = 10_000;

/** Resets a product for queued orders and sells ORDERS units of it; their jobs wait in the queue. */
async function queuedOrders(): Promise<number> {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: ORDERS + 5, strategy: 'lua-decrement', orderWrite: 'queued' });
  const placements = await Promise.all(Array.from({ length: ORDERS }, () => lab.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })));
  expect(placements.map((p) => p.result.outcome)).toEqual(Array(ORDERS).fill('sold'));
  return productId;
}

const rows = async (productId: number) => (await lab.app.inventory.inventory(productId)).orders;

/** A crashing order writer in its own OS process; resolves once it has SIGKILLed itself at `at`. */
async function writeAndDieAt(at: string): Promise<void> {
  const child = fork(join(__dirname, '../../testing/crashing-order-writer.ts'), [lab.keyPrefix, at], {
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../../../tsconfig.json') },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  expect(signal).toBe('SIGKILL');
}

it('retries the batch of a writer killed between its INSERT and completing the jobs, and writes no order twice', async () => {
  const productId = await queuedOrders();

  await writeAndDieAt('order-batch-written');

  // It died with its first batch's rows written and every job still unfinished: the retry sends that INSERT again.
  const writtenByTheDead = await rows(productId);
  expect(writtenByTheDead).toBeGreaterThan(0);
  expect((await queue().backlog()).depth).toBe(ORDERS);
  lab.app.app.get(OrderWriteProcessor).start();
  // Its jobs' locks lapse (5 s) and the stalled check (every 5 s) hands them to this writer.
  await until(async () => (await queue().backlog()).depth === 0, 'the dead writer\'s jobs are written again', 30_000);
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: ORDERS, orders: ORDERS, oversold: 0, lost: 0, storesAgree: true });
  expect((await queue().backlog()).failed).toBe(0);
}, 120_000);

describe('MySQL unreachable for 10 s', () => {
  // A second instance on the same keys whose MySQL goes through the proxy; it writes the queued orders.
  const { proxy } = useStockInstanceBehindMysqlProxy(lab, 'writer-behind-proxy');

  it('keeps the orders queued while MySQL is gone, retrying, and writes each once after it returns', async () => {
    // The main lab's writer (started above) would write them straight to MySQL: this test needs only the proxied one.
    await lab.app.app.get(OrderWriteProcessor).worker.pause();
    await proxy.cut();
    const cutAt = Date.now();
    const productId = await queuedOrders();

    // The writer's batch fails and waits for its retry: the orders stay queued, none is written or lost.
    await until(async () => (await queue().backlog()).retrying > 0, 'a failed batch waits to be retried', 10_000);
    expect(await rows(productId)).toBe(0);
    // The outage itself lasts 10 s, whatever the writer does meanwhile.
    await sleep(OUTAGE_MS - (Date.now() - cutAt));
    expect((await queue().backlog()).depth).toBe(ORDERS);
    expect(await rows(productId)).toBe(0);

    await proxy.restore();
    await until(async () => (await queue().backlog()).depth === 0, 'the queue drains once MySQL is back', 30_000);

    expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: ORDERS, orders: ORDERS, oversold: 0, lost: 0, storesAgree: true });
    expect((await queue().backlog()).failed).toBe(0);
    expect(await lab.app.app.get(OrderRecorder).soldInRun(productId, (await lab.app.inventory.inventory(productId)).runId)).toEqual({ units: ORDERS, orders: ORDERS });
  }, 60_000);
});
