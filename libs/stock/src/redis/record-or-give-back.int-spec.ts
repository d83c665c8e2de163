import type { OrderView } from '@oversell/contracts';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { faultPointsFor } from '../fault-points';
import type { DeductContext } from '../stock-strategy';
import { freshKeyPrefix, testRedisOptions } from '../testing';
import { recordOrGiveBack } from './redis-stock';

/** What a failed order write does to stock that was already taken, by what the failure proves. */
let redis: Redis;
const prefix = freshKeyPrefix();
const cell = { stock: `${prefix}:stock`, moves: `${prefix}:moves`, orders: `${prefix}:orders` };
const ORDER = { id: 7, productId: 1, quantity: 2, strategy: 'lua-decrement', runId: 'r', idempotencyKey: null, createdAt: new Date().toISOString(), replayed: false } satisfies OrderView;

beforeAll(() => {
  redis = new Redis(testRedisOptions());
});

afterAll(async () => {
  await redis.del(cell.stock, cell.moves, cell.orders);
  await redis.quit();
});

/** How often the attempt said its order will not be (it lets go of the order's idempotency claim then). */
let abandoned = 0;

function context(fail: Error & { code?: string }, recorded: () => Promise<OrderView | null>): DeductContext {
  const settings = { productId: 1, runId: 'r', strategy: 'lua-decrement' as const, initialStock: 10, lockTtlMs: 2000, businessDelayMs: 0, segments: 5 };
  return { requestId: randomUUID(), quantity: 2, settings, faults: faultPointsFor(settings), record: () => Promise.reject(fail), recorded, abandoned: async () => void abandoned++ };
}

const error = (code: string, message = code) => Object.assign(new Error(message), { code });

beforeEach(async () => {
  // 10 units, of which this attempt has just taken 2.
  await redis.set(cell.stock, 8);
  abandoned = 0;
});

it('gives the units back when the INSERT was never sent (connection refused)', async () => {
  await expect(recordOrGiveBack(redis, cell, context(error('ECONNREFUSED'), () => Promise.reject(new Error('not asked'))))).rejects.toThrow('ECONNREFUSED');
  expect(await redis.get(cell.stock)).toBe('10');
  expect(abandoned).toBe(1);
});

it.each(['ER_CON_COUNT_ERROR', 'ER_USER_LIMIT_REACHED'])('gives the units back when MySQL refused the connection itself (%s): no statement was sent', async (code) => {
  // Asking MySQL whether the order landed would be refused the same way, and the units kept as lost.
  await expect(recordOrGiveBack(redis, cell, context(error(code, 'Too many connections'), () => Promise.reject(error(code))))).rejects.toThrow('Too many connections');
  expect(await redis.get(cell.stock)).toBe('10');
});

it('keeps the sale when the connection died after the commit and the order is there', async () => {
  const result = await recordOrGiveBack(redis, cell, context(error('PROTOCOL_CONNECTION_LOST'), async () => ORDER));
  expect(result).toMatchObject({ outcome: 'sold', order: { id: 7 } });
  expect(await redis.get(cell.stock)).toBe('8');
  expect(abandoned).toBe(0);
});

it('gives the units back when MySQL confirms the order is not there', async () => {
  await expect(recordOrGiveBack(redis, cell, context(error('PROTOCOL_CONNECTION_LOST'), async () => null))).rejects.toThrow();
  expect(await redis.get(cell.stock)).toBe('10');
  expect(abandoned).toBe(1);
});

it('keeps the units taken when MySQL cannot say: counted as lost, never sold twice', async () => {
  await expect(recordOrGiveBack(redis, cell, context(error('ETIMEDOUT'), () => Promise.reject(error('ECONNREFUSED'))))).rejects.toThrow('ETIMEDOUT');
  expect(await redis.get(cell.stock)).toBe('8');
  // The order may yet be there: whatever it claimed stays claimed.
  expect(abandoned).toBe(0);
});
