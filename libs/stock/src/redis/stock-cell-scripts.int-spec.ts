import { freshKeyPrefix, testRedisOptions } from '@oversell/locks/testing';
import Redis from 'ioredis';
import { RedisStockStore } from '../compose/redis-stock-store';
import { plainAccess } from './fenced-stock';

/**
 * The service's command connection auto-pipelines the commands of one tick. A script first defined
 * while that tick's pipeline is open is missing from it: the section's write of the stock failed
 * ("pipeline[functionName] is not a function") on a lab's first orders, and ioredis then killed the
 * instance ("results[i] is not iterable"). A store defines its scripts when it is made, at start-up.
 */
describe('the stock cell scripts on an auto-pipelining connection', () => {
  const prefix = freshKeyPrefix();
  const cell = { stock: `${prefix}:stock`, moves: `${prefix}:moves`, orders: `${prefix}:orders` };
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis({ ...testRedisOptions(), enableAutoPipelining: true });
    await redis.set(cell.stock, 10);
  });
  afterAll(async () => {
    await redis.del(cell.stock, cell.moves, cell.orders);
    await redis.quit();
  });

  it('writes in the same tick as other commands once a store was made on the connection', async () => {
    void new RedisStockStore(redis, prefix);
    const [stock, written] = await Promise.all([redis.get(cell.stock), plainAccess(redis, cell).write(9, { requestId: 'request-1', quantity: 1 })]);
    expect({ stock, written }).toEqual({ stock: '10', written: 'written' });
    expect(await redis.get(cell.stock)).toBe('9');
  });
});
