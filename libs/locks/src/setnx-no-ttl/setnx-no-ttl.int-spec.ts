import { useTestRedis } from '../testing';
import { setnxNoTtlLock } from './setnx-no-ttl.lock';

const fixture = useTestRedis();

describe('setnx-no-ttl lock', () => {
  it('sets the key with no expiry whatever lease is asked, and reports no lease on the holding', async () => {
    const key = fixture.freshKey();
    const holding = await setnxNoTtlLock(fixture.redis).acquire(key, { waitMs: 0, leaseMs: 50 });
    expect(await fixture.redis.get(key)).toBe('1');
    expect(await fixture.redis.pttl(key)).toBe(-1);
    expect(holding!.leaseMs).toBe(Infinity);
    expect(await holding!.release()).toBe('unknown');
    expect(await fixture.redis.exists(key)).toBe(0);
  });

  it('a holder that never releases (it died) keeps every later acquire out, long past the lease asked for', async () => {
    const key = fixture.freshKey();
    const lock = setnxNoTtlLock(fixture.redis);
    expect(await lock.acquire(key, { waitMs: 0, leaseMs: 20 })).not.toBeNull();
    const started = Date.now();
    expect(await lock.acquire(key, { waitMs: 200, leaseMs: 20 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await fixture.redis.pttl(key)).toBe(-1);
    // Only deleting the key by hand lets anyone in again.
    await fixture.redis.del(key);
    expect(await lock.acquire(key, { waitMs: 0, leaseMs: 20 })).not.toBeNull();
  });
});
