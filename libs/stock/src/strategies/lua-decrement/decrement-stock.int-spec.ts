import Redis from 'ioredis';
import { freshKeyPrefix, testRedisOptions } from '../../testing';
import { atomicTakeCommand, type AtomicTakeCommand } from '../../compose/atomic-redis-stock';
import { CLAIMED } from '../../redis/order-claim';
import { DECREMENT_STOCK } from './lua-decrement.strategy';

let redis: Redis;
let decrementStock: AtomicTakeCommand<number>;
const prefix = freshKeyPrefix();
const key = `${prefix}:stock`;
const moves = `${prefix}:moves`;
const orders = `${prefix}:orders`;
const claim = `${prefix}:idempotency:key-1`;
let request = 0;
/** Takes as a new request each time. */
const take = (units: number) => decrementStock(key, moves, orders, orders, units, `request-${++request}`, '', '');

beforeAll(() => {
  redis = new Redis(testRedisOptions());
  decrementStock = atomicTakeCommand(redis, DECREMENT_STOCK);
});

afterAll(async () => {
  await redis.del(key, moves, orders, claim);
  await redis.quit();
});

describe('decrement-stock-4.lua', () => {
  it('takes units while there are enough, answering what is left', async () => {
    await redis.set(key, 5);
    expect(await take(2)).toBe(3);
    expect(await take(3)).toBe(0);
  });

  it('answers -1 and takes nothing when the stock cannot cover the order', async () => {
    await redis.set(key, 2);
    expect(await take(3)).toBe(-1);
    expect(await redis.get(key)).toBe('2');
  });

  it('answers -2 when the stock key does not exist (never seeded, or lost by Redis)', async () => {
    await redis.del(key);
    expect(await take(1)).toBe(-2);
    expect(await redis.exists(key)).toBe(0);
  });

  it('never goes below zero under 500 concurrent decrements', async () => {
    await redis.set(key, 100);
    const results = await Promise.all(Array.from({ length: 500 }, () => take(1)));
    expect(results.filter((r) => typeof r === 'number' && r >= 0)).toHaveLength(100);
    expect(await redis.get(key)).toBe('0');
  });

  it('claims the idempotency key of a streamed order with its take; another request holding it takes nothing', async () => {
    await redis.set(key, 5);
    await redis.xadd(orders, '*', 'o', 'earlier');
    const streamed = (requestId: string) => decrementStock(key, moves, orders, claim, 1, requestId, `{"requestId":"${requestId}"}`, 60);
    expect(await streamed('first')).toBe(4);
    expect(await redis.get(claim)).toBe('first');
    expect(await redis.ttl(claim)).toBeGreaterThan(0);
    // A second click with the same key: refused in the same step, nothing taken, nothing appended.
    expect(await streamed('second')).toBe(CLAIMED);
    expect(await redis.get(key)).toBe('4');
    expect(await redis.xlen(orders)).toBe(2);
    // The first request's take sent again (ioredis re-sends) answers what it answered.
    expect(await streamed('first')).toBe(4);
    expect(await redis.xlen(orders)).toBe(2);
  });

  it('leaves no claim when the take finds too little stock', async () => {
    await redis.del(claim);
    await redis.set(key, 0);
    expect(await decrementStock(key, moves, orders, claim, 1, 'sold-out', '{}', 60)).toBe(-1);
    expect(await redis.exists(claim)).toBe(0);
  });
});

