import type { LockEvent } from '@oversell/contracts';
import { DEFAULT_STOCK_OPTIONS, RedisConnections, type StockOptions } from '@oversell/stock';
import { freshKeyPrefix, testRedisOptions } from '@oversell/stock/testing';
import { randomUUID } from 'node:crypto';
import { RunFigureKeys } from '../redis-keys';
import { reconcile } from '../runs/reconciliation';
import { LockHistory } from './lock-history';
import { RunFiguresReader } from './run-figures.reader';

/** A run's lock events read back page by page from the real Redis, as the run worker reads them after the drain. */
const keyPrefix = freshKeyPrefix();
const options: StockOptions = { ...DEFAULT_STOCK_OPTIONS, keyPrefix, instanceId: 'instance-a', redis: testRedisOptions() };
let connections: RedisConnections;

beforeAll(() => {
  connections = new RedisConnections(options);
});

afterAll(async () => {
  const left = await connections.control.keys(`${keyPrefix}:*`);
  if (left.length) await connections.control.del(...left);
  await connections.onApplicationShutdown();
});

/** One holding of `lockKey` by request `r<i>`, from `acquiredAt` for 5 ms. */
const holding = (i: number, acquiredAt: number, lockKey = 'stock-lock'): LockEvent => ({ lockKey, instance: 'instance-a', requestId: `r${i}`, requestedAt: acquiredAt, acquiredAt, releasedAt: acquiredAt + 5, expired: false });

async function pushed(events: LockEvent[]): Promise<string> {
  const runId = randomUUID();
  await connections.control.rpush(new RunFigureKeys(keyPrefix, runId).lockEvents, ...events.map((e) => JSON.stringify(e)));
  return runId;
}

it('reads every event once, in the order pushed, a page at a time; keeps the first ones in full and every holding', async () => {
  // 12 holdings one after another, on two keys: 5 + 5 + 2 by pages of 5.
  const events = Array.from({ length: 12 }, (_, i) => holding(i, 1000 + i * 10, i % 2 ? 'lock-b' : 'lock-a'));
  const runId = await pushed(events);
  const reader = new RunFiguresReader(connections, options);
  const pages: number[] = [];
  const history = new LockHistory(7);
  await reader.readLockEvents(runId, (page) => (pages.push(page.length), history.add(page)), 5);

  expect(pages).toEqual([5, 5, 2]);
  expect(history.kept).toEqual(events.slice(0, 7));
  expect(history.holdings).toEqual(events.map(({ lockKey, requestId, acquiredAt, releasedAt }) => ({ lockKey, requestId, acquiredAt, releasedAt })));
  // One string per key, whatever the number of events: what lets a 100k-event run fit the worker's heap.
  expect(history.holdings.filter((h) => h.lockKey === 'lock-a').every((h) => h.lockKey === history.holdings[0].lockKey)).toBe(true);
});

it('finds an overlap between holdings read in different pages, beyond the ones kept in full', async () => {
  // r0..r9 one after another; r10 begins inside r1's holding of the same key (page 1 against page 3).
  const events = [...Array.from({ length: 10 }, (_, i) => holding(i, 1000 + i * 10)), holding(10, 1012)];
  const history = new LockHistory(2);
  await new RunFiguresReader(connections, options).readLockEvents(await pushed(events), (page) => history.add(page), 4);

  const inventory = { productId: 1, runId: 'r', strategy: 'uuid-lua' as const, initialStock: 11, lockTtlMs: 2000, businessDelayMs: 0, remaining: 0, sold: 11, orders: 11, oversold: 0, storesAgree: true, lost: 0, lostUpdates: 0, soldTwice: 0, settledLate: { pending: 0, kept: 0, givenBack: 0 }, moves: null, storeLost: false };
  expect(history.kept).toHaveLength(2);
  expect(reconcile(inventory, history.holdings, 0).exclusionViolations).toBe(1);
});

it('reads nothing of a run without lock events', async () => {
  const visit = jest.fn();
  await new RunFiguresReader(connections, options).readLockEvents(randomUUID(), visit, 5);
  expect(visit).not.toHaveBeenCalled();
});
