import type { RunView } from '@oversell/contracts';
import { OrderWriteQueue } from '@oversell/stock';
import { testRedisOptions, until, useStockInstanceBehindMysqlProxy } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { runToItsEnd, START_TIMEOUT_MS, stopVictimAndPeer } from './victim-and-peer';

/**
 * A queued run through MySQL away for 10 s, seen by the run itself (its figures and its books). The
 * service process takes the orders and queues them but writes none (ORDER_WRITER=false); the only
 * writer is a stock instance in this process, on the same keys, whose MySQL goes through a proxy the
 * test cuts. The stock library's order-write-failures.int-spec shows the same outage from the queue's side.
 */
const ORDERS = 30;
const OUTAGE_MS = 10_000;
/** The outage also outlasts the last order by this much, so the run's samples of the full backlog span seconds. */
const AFTER_THE_LAST_ORDER_MS = 3_000;
let service: ServiceProcess;

beforeAll(async () => {
  service = await startServiceProcess({ env: { ORDER_WRITER: 'false' } });
}, START_TIMEOUT_MS);

afterAll(() => stopVictimAndPeer([service], new Redis(testRedisOptions()), service.keyPrefix));

// Started after the service (hooks run in order), on its key prefix.
const writer = useStockInstanceBehindMysqlProxy({ get keyPrefix() { return service.keyPrefix; } }, 'writer-behind-proxy');

it('keeps the run\'s orders queued while MySQL is away, shows the backlog in the run\'s figures, and ends with each order written once', async () => {
  const backlog = () => writer.app.app.get(OrderWriteQueue).backlog();
  await writer.proxy.cut();
  const cutAt = Date.now();
  const ending = runToItsEnd(service, { strategy: 'lua-decrement', orderWrite: 'queued', initialStock: ORDERS + 10, load: { connections: 5, totalRequests: ORDERS } });

  // Every order sold and queued; the writer's batch failed against the cut MySQL and waits for its retry.
  await until(async () => {
    const { depth, retrying } = await backlog();
    return depth === ORDERS && retrying > 0;
  }, 'the run\'s orders wait in the queue, their batch failed', 30_000);
  const queuedAt = Date.now();
  // The fault itself: MySQL stays away 10 s, whatever the writer does meanwhile.
  await sleep(Math.max(OUTAGE_MS - (queuedAt - cutAt), AFTER_THE_LAST_ORDER_MS));
  expect((await backlog()).depth).toBe(ORDERS);
  await writer.proxy.restore();
  const restoredAt = Date.now();
  const run: RunView = await ending;

  expect(run).toMatchObject({ status: 'completed', failure: null });
  const { reconciliation, orderWrite } = run.result!;
  // The run's drain waited out the outage (its bound is 30 s): every order written once, none lost.
  expect(reconciliation).toMatchObject({ sold: ORDERS, orders: ORDERS, oversold: 0, lost: 0, storesAgree: true });
  expect(orderWrite).toMatchObject({ peakDepth: ORDERS, stillQueued: 0, failed: 0 });
  // The backlog, each second: full for every second the test saw it full.
  const fullSeconds = orderWrite!.backlog.filter((point) => point.depth === ORDERS).length;
  expect(fullSeconds).toBeGreaterThanOrEqual(Math.floor((restoredAt - queuedAt) / 1000) - 1);
  // Its write lag: the oldest order waited at least from when all were queued to MySQL's return.
  expect(orderWrite!.peakLagMs).toBeGreaterThanOrEqual(restoredAt - queuedAt - 1000);
  expect((await backlog()).depth).toBe(0);
}, 180_000);
