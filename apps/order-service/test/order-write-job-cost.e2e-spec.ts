import { testRedisOptions } from '@oversell/stock/testing';
import IORedis from 'ioredis';
import { measureJobCost } from '../src/order-write-job-cost';

/** The measurement behind docs/performance.md's cost of a BullMQ job: its figures are printed, never asserted. */
describe('order-write-job-cost', () => {
  it('has the worker take and finish each job it added exactly once, then leaves nothing of its queue in Redis', async () => {
    const options = testRedisOptions() as { host: string; port: number };
    const redis = new IORedis(options);
    try {
      const cost = await measureJobCost(300, 30, options);
      expect(cost).toMatchObject({ jobs: 300, finished: 300, left: 0 });
      expect(await redis.keys(`${cost.prefix}:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
