import { ORDER_WRITES, STRATEGY_CATALOGUE, type InventoryView, type OrderWrite, type StrategyName } from '@oversell/contracts';
import { forkLoad, type LoadSummary } from '@oversell/loadtests';
import Redis from 'ioredis';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { killRedis, startRedis } from '../testing/own-redis';
import { TcpRelay } from '../testing/tcp-relay';
import { freePort, startTestLab, testLabEnv } from '../testing/test-lab';

/**
 * No unit stranded, none conjured, as a user meets the faults: through the lab's nginx, orders from 3
 * OS processes (the load tool's own child, 8 connections each) on a small sale, the fault injected at
 * the Nth take, not after a sleep:
 * - the lab's Redis (its own redis-server, nothing on disk) SIGKILLed and started again at the stock
 *   key's Nth keyspace event;
 * - MySQL gone for 3 s from the same moment: the instances reach MariaDB through a relay of this
 *   test's (tcp-relay.ts), stopped (connections reset, new ones refused) and started again. The
 *   machine's MariaDB is shared and is not stopped. (The lab's store-cut fault cuts one instance at a
 *   time, at its own passages of a point: `every` there fires again while a cut is on.)
 *
 * In CI one strategy per family the fault tells apart: lua-decrement (one script takes and records),
 * decr-check (two commands: the one that conjured units after a restart), watchdog (a lock around a
 * read and a write); for MySQL every order-write mode on lua-decrement, and watchdog's sync (the
 * issue's 161 stranded units). Each sale takes ~10 s: the whole matrix — every safe strategy whose
 * stock is on the lab's Redis, each mode it supports — takes minutes, and runs with STORE_FAULT_MATRIX=all.
 */
const FULL = process.env.STORE_FAULT_MATRIX === 'all';
/** Their stock lives on the lab's Redis (not a Cluster of their own), and they are right on a healthy store. */
const REDIS_STOCK: StrategyName[] = STRATEGY_CATALOGUE.filter((entry) => entry.store === 'redis' && entry.safe && !entry.needs.includes('redis-cluster')).map((entry) => entry.name);
const RESTARTED: StrategyName[] = FULL ? REDIS_STOCK : ['lua-decrement', 'decr-check', 'watchdog'];
const MYSQL_STOPPED: [StrategyName, OrderWrite][] = FULL
  ? REDIS_STOCK.flatMap((strategy) => ORDER_WRITES.map((write): [StrategyName, OrderWrite] => [strategy, write]))
  : [['lua-decrement', 'sync'], ['lua-decrement', 'queued'], ['lua-decrement', 'stream'], ['watchdog', 'sync']];

const STOCK = 80;
const CLIENT_PROCESSES = 3;
const CONNECTIONS = 8;
/** The take the fault comes at: a quarter into the sale, with orders of every process in flight. */
const FAULT_AT_TAKE = 20;
const MYSQL_DOWN_MS = 3000;
/** Nothing on disk, as the lab's local Redis runs (compose-redis.int-spec): a restart keeps nothing. */
const NOTHING_ON_DISK = ['redis-server', '--save', '', '--appendonly', 'no', '--notify-keyspace-events', 'K$'];

let lab: Lab;
let redis: ChildProcess;
let redisPort: number;
let redisDir: string;
const labEnv = testLabEnv();
let mysql: TcpRelay;

beforeAll(async () => {
  redisDir = mkdtempSync(join(tmpdir(), 'ol-stores-lost-'));
  redisPort = await freePort();
  redis = await startRedis(NOTHING_ON_DISK, redisPort, redisDir);
  mysql = new TcpRelay(await freePort(), { host: process.env.MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.MYSQL_PORT ?? 3306) });
  await mysql.start();
  const strategies = [...new Set([...RESTARTED, ...MYSQL_STOPPED.map(([strategy]) => strategy)])];
  lab = await startTestLab(2, { env: { ...labEnv, REDIS_HOST: '127.0.0.1', REDIS_PORT: String(redisPort), MYSQL_HOST: '127.0.0.1', MYSQL_PORT: String(mysql.port) }, storeProxy: false, strategies });
});

afterAll(async () => {
  await lab?.stop();
  await mysql?.stop();
  if (redis) await killRedis(redis);
  rmSync(redisDir, { recursive: true, force: true });
});

const productIds = (() => {
  let next = 100_000 + Math.floor(Math.random() * 1_000_000_000);
  return () => next++;
})();

async function api<T>(path: string, body?: object): Promise<{ status: number; body: T }> {
  const response = await fetch(`${lab.gatewayUrl}${path}`, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {});
  return { status: response.status, body: (await response.json()) as T };
}

const inventoryOf = async (productId: number) => (await api<InventoryView>(`/api/products/${productId}/inventory`)).body;

/**
 * Resolves at the product's `n`th stock change in the lab's Redis (a take, a give-back, a lock
 * strategy's write: each is one keyspace event on its stock key, from any instance).
 */
async function atTake(productId: number, n: number): Promise<{ reached: Promise<void>; stop: () => void }> {
  const subscriber = new Redis({ host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null, retryStrategy: () => null });
  subscriber.on('error', () => undefined);
  await subscriber.psubscribe(`__keyspace@0__:${labEnv.REDIS_KEY_PREFIX}:{p${productId}}:*`);
  let seen = 0;
  const reached = new Promise<void>((resolve) =>
    subscriber.on('pmessage', (_pattern, channel: string) => {
      if (/:(stock|segment:\d+)$/.test(channel) && ++seen === n) resolve();
    }),
  );
  return { reached, stop: () => subscriber.disconnect() };
}

/** A sale from CLIENT_PROCESSES load processes through nginx for `durationSec`, with `fault` at the FAULT_AT_TAKE-th take. */
async function saleWithFault(productId: number, strategy: StrategyName, durationSec: number, fault: () => Promise<void>): Promise<{ loads: LoadSummary[]; faulted: boolean }> {
  const take = await atTake(productId, FAULT_AT_TAKE);
  let faulted = false;
  const injected = take.reached.then(async () => {
    faulted = true;
    take.stop();
    await fault();
  });
  try {
    const loads = await Promise.all(
      Array.from({ length: CLIENT_PROCESSES }, () => forkLoad({ urls: [lab.gatewayUrl], target: 'orders', productId, strategy, profile: { connections: CONNECTIONS, durationSec } })),
    );
    if (faulted) await injected;
    return { loads, faulted };
  } finally {
    take.stop();
  }
}

const answered = (loads: LoadSummary[], status: string) => loads.reduce((sum, load) => sum + (load.statusCounts[status] ?? 0), 0);
/** Orders answered as sold: 201, or 202 where the order is queued or streamed to be written. */
const soldAnswers = (loads: LoadSummary[]) => answered(loads, '201') + answered(loads, '202');

describe.each(RESTARTED)('%s: the lab\'s Redis restarted mid-sale (nothing on disk)', (strategy) => {
  it('refuses with 503 stock_store_lost from then on, the inventory says the store was lost, nothing oversold, no stock conjured', async () => {
    const productId = productIds();
    expect((await api(`/api/products/${productId}/reset`, { stock: STOCK, strategy, lockTtlMs: 2000, businessDelayMs: 0 })).status).toBe(200);

    const { loads, faulted } = await saleWithFault(productId, strategy, 4, async () => {
      await killRedis(redis);
      redis = await startRedis(NOTHING_ON_DISK, redisPort, redisDir);
    });
    expect(faulted).toBe(true);

    const sold = soldAnswers(loads);
    const refused = await api<{ error: string }>('/api/orders', { productId, quantity: 1, strategy });
    const inventory = await inventoryOf(productId);
    const after = new Redis({ host: '127.0.0.1', port: redisPort });
    const stockKeys = (await after.keys(`${labEnv.REDIS_KEY_PREFIX}:{p${productId}}:*`)).filter((key) => /:(stock|segment:\d+)$/.test(key));
    after.disconnect();
    console.log(`${strategy} Redis restarted at take ${FAULT_AT_TAKE}: ${JSON.stringify({ statuses: loads.map((load) => load.statusCounts), inventory: { sold: inventory.sold, orders: inventory.orders, oversold: inventory.oversold, storeLost: inventory.storeLost } })}`);

    expect(answered(loads, '503')).toBeGreaterThan(0);
    expect(refused).toMatchObject({ status: 503, body: { error: 'stock_store_lost' } });
    // No script re-created a stock key it did not find: no phantom units for a later order to sell.
    expect(stockKeys).toEqual([]);
    expect(inventory).toMatchObject({ storeLost: true, oversold: 0, soldTwice: 0 });
    // Every 201 is an order in MySQL, and no more were sold than the sale had.
    expect(inventory.orders).toBe(sold);
    expect(inventory.sold).toBeLessThanOrEqual(STOCK);
  });
});

describe.each(MYSQL_STOPPED)('%s, orders written %s: MySQL gone for 3 s mid-sale', (strategy, orderWrite) => {
  it('after the drain every unit taken has exactly one order, none stranded, the late settlements counted', async () => {
    const productId = productIds();
    const reset = await api<{ error?: string }>(`/api/products/${productId}/reset`, { stock: STOCK, strategy, lockTtlMs: 2000, businessDelayMs: 0, orderWrite });
    // The full matrix meets strategies whose take is not one script: they refuse the stream (400), which their own suite tests.
    if (FULL && reset.body.error === 'order_write_unsupported') return;
    expect(reset.status).toBe(200);

    const { loads, faulted } = await saleWithFault(productId, strategy, 7, async () => {
      await mysql.stop();
      await sleep(MYSQL_DOWN_MS);
      await mysql.start();
    });
    expect(faulted).toBe(true);

    // The drain: queued jobs and stream entries written, each take of unknown fate settled (bounded).
    // Then no unit is stranded: the stock went down by exactly the units MySQL has orders for. (Units
    // left are not: an order refused mid-outage gave its units back, which a later order may not have
    // come for, on a machine this loaded.)
    let inventory = await inventoryOf(productId);
    const deadline = Date.now() + 60_000;
    while (inventory.settledLate.pending > 0 || inventory.initialStock - inventory.remaining !== inventory.sold) {
      if (Date.now() > deadline) throw new Error(`not drained within 60 s: ${JSON.stringify(inventory)}`);
      await sleep(100);
      inventory = await inventoryOf(productId);
    }
    console.log(`${strategy}/${orderWrite} MySQL down ${MYSQL_DOWN_MS} ms from take ${FAULT_AT_TAKE}: ${JSON.stringify({ statuses: loads.map((load) => load.statusCounts), inventory: { remaining: inventory.remaining, sold: inventory.sold, orders: inventory.orders, settledLate: inventory.settledLate } })}`);

    // A sync order needs MySQL to be answered: some were refused (503) while it was gone. Queued and
    // streamed orders never touch it on the way: they kept selling, and their rows waited.
    if (orderWrite === 'sync') expect(answered(loads, '503')).toBeGreaterThan(0);
    else expect(answered(loads, '503')).toBe(0);
    expect(inventory).toMatchObject({ oversold: 0, lost: 0, soldTwice: 0, storesAgree: true, storeLost: false, settledLate: { pending: 0 } });
    // Every 201/202 has its order, and an order without one is a take settled late as kept (its client
    // was answered 503), or one whose client stopped waiting (the load's end cuts off what is in flight).
    expect(inventory.orders).toBe(inventory.sold);
    expect(soldAnswers(loads)).toBeLessThanOrEqual(inventory.orders);
    const unanswered = loads.reduce((sum, load) => sum + load.sent - load.requests, 0);
    expect(inventory.orders - soldAnswers(loads)).toBeLessThanOrEqual(inventory.settledLate.kept + unanswered);
    if (inventory.moves) expect(inventory.moves).toMatchObject({ takenWithoutOrder: { count: 0 }, orderedWithoutTake: { count: 0 }, takenTwice: { count: 0 } });
  });
});

it('copies of a streamed order sent at once through nginx: one is sold (202), each other answers the duplicate\'s contract (409 conflict on the key while its entry waits, 200 with the order once written); one unit per order', async () => {
  const productId = productIds();
  const ORDERS = 10;
  const COPIES = 3;
  expect((await api(`/api/products/${productId}/reset`, { stock: 50, strategy: 'lua-decrement', orderWrite: 'stream' })).status).toBe(200);
  const answers = await Promise.all(
    Array.from({ length: ORDERS }, (_, i) => {
      const order = { productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: `copies-${productId}-${i}` };
      return Promise.all(Array.from({ length: COPIES }, () => api<{ error?: string; field?: string; idempotencyKey?: string; replayed?: boolean }>('/api/orders', order)));
    }),
  );
  for (const copies of answers) {
    expect(copies.filter((answer) => answer.status === 202)).toHaveLength(1);
    for (const answer of copies.filter((copy) => copy.status !== 202)) {
      if (answer.status === 409) expect(answer.body).toMatchObject({ error: 'conflict', field: 'idempotencyKey' });
      else expect(answer).toMatchObject({ status: 200, body: { replayed: true, idempotencyKey: expect.stringMatching(/^copies-/) } });
    }
  }
  const statuses = answers.flat().reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  console.log(`${ORDERS} streamed orders × ${COPIES} copies at once: ${JSON.stringify(statuses)}`);
  let inventory = await inventoryOf(productId);
  for (const deadline = Date.now() + 30_000; inventory.orders < ORDERS && Date.now() < deadline; inventory = await inventoryOf(productId)) await sleep(50);
  expect(inventory).toMatchObject({ remaining: 50 - ORDERS, sold: ORDERS, orders: ORDERS, oversold: 0, storesAgree: true });
});
