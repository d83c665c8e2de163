import { setTimeout as sleep } from 'node:timers/promises';
import type { LockPoint } from '../distributed-lock';
import { useTestRedis } from '../testing';
import { setnxExpireLock } from './setnx-expire.lock';

const fixture = useTestRedis();

describe('setnx-expire lock', () => {
  it('holds the key with no TTL between its SETNX and its PEXPIRE, and with the lease after', async () => {
    const key = fixture.freshKey();
    const seen: { point: LockPoint; value: string | null; pttl: number }[] = [];
    const hooks = { at: async (point: LockPoint) => void seen.push({ point, value: await fixture.redis.get(key), pttl: await fixture.redis.pttl(key) }) };
    const holding = await setnxExpireLock(fixture.redis).acquire(key, { token: 'A', waitMs: 0, leaseMs: 10_000, hooks });
    expect(seen).toEqual([{ point: 'lock-set-before-expire', value: 'A', pttl: -1 }]);
    const pttl = await fixture.redis.pttl(key);
    expect(pttl).toBeGreaterThan(9_000);
    expect(pttl).toBeLessThanOrEqual(10_000);
    expect(await holding!.release()).toBe('unknown');
    expect(await fixture.redis.exists(key)).toBe(0);
  });

  it('a holder stopped for good between the two commands keeps every later acquire out, long past its lease', async () => {
    const key = fixture.freshKey();
    const lock = setnxExpireLock(fixture.redis);
    // The first holder never gets past its SETNX: the PEXPIRE is never sent.
    const never = new Promise<void>(() => undefined);
    void lock.acquire(key, { token: 'dead', waitMs: 0, leaseMs: 20, hooks: { at: () => never } });
    while ((await fixture.redis.exists(key)) === 0) await sleep(1);
    expect(await lock.acquire(key, { token: 'B', waitMs: 200, leaseMs: 20 })).toBeNull();
    expect(await fixture.redis.get(key)).toBe('dead');
    expect(await fixture.redis.pttl(key)).toBe(-1);
  });
});
