import IORedis from 'ioredis';
import { measureJobCost } from '../src/order-write-job-cost';

/** The measurement behind docs/performance.md's cost of a BullMQ job: its figures are printed, never asserted. */
describe('order-write-job-cost', () => {
  it('takes and finishes every job it added, then leaves nothing of its queue in Redis', async () => {
    const redis = new IORedis();
    try {
      const cost = await measureJobCost(300, 30);
      expect(cost).toMatchObject({ jobs: 300, left: 0 });
      // Both sides spent CPU in both processes: a phase that measured nothing would read 0.
      for (const phase of [cost.add, cost.work]) {
        expect(phase.processUs).toBeGreaterThan(0);
        expect(phase.redisUs).toBeGreaterThan(0);
      }
      expect(await redis.keys('ol-jobcost-*')).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
