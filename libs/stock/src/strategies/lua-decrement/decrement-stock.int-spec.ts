import { useScripts } from '@oversell/locks';
import Redis from 'ioredis';
import { freshKeyPrefix, testRedisOptions } from '../../testing';
import { DECREMENT_STOCK } from './lua-decrement.strategy';

let redis: Redis;
const prefix = freshKeyPrefix();
const key = `${prefix}:stock`;
const moves = `${prefix}:moves`;
const orders = `${prefix}:orders`;
let request = 0;
/** Takes as a new request each time. */
const take = (units: number) => redis.decrementStockV1(key, moves, orders, units, `request-${++request}`, '');

beforeAll(() => {
  redis = useScripts(new Redis(testRedisOptions()), [DECREMENT_STOCK]);
});

afterAll(async () => {
  await redis.del(key, moves);
  await redis.quit();
});

describe('decrement-stock-3.lua', () => {
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
    expect(results.filter((r) => r >= 0)).toHaveLength(100);
    expect(await redis.get(key)).toBe('0');
  });
});
