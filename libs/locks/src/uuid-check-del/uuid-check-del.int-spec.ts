import { setTimeout as sleep } from 'node:timers/promises';
import type { LockHolding, LockHooks } from '../distributed-lock';
import { useTestRedis } from '../testing';
import { uuidCheckDelLock } from './uuid-check-del.lock';

const fixture = useTestRedis();

describe('uuid-check-del lock', () => {
  it('deletes its own lock and says it still owned it', async () => {
    const key = fixture.freshKey();
    const holding = await uuidCheckDelLock(fixture.redis).acquire(key, { token: 'A', waitMs: 0, leaseMs: 10_000 });
    expect(await fixture.redis.get(key)).toBe('A');
    expect(await holding!.release()).toBe(true);
    expect(await fixture.redis.exists(key)).toBe(0);
  });

  it('leaves alone a lock that expired and was taken before its GET, and says it no longer owned it', async () => {
    const key = fixture.freshKey();
    const holding = await uuidCheckDelLock(fixture.redis).acquire(key, { token: 'A', waitMs: 0, leaseMs: 10_000 });
    // A's lease has run out and B holds the key when A's GET runs.
    await fixture.redis.set(key, 'B', 'PX', 10_000);
    expect(await holding!.release()).toBe(false);
    expect(await fixture.redis.get(key)).toBe('B');
  });

  it('deletes the next holder\'s lock when its lease runs out between the GET and the DEL, and still says true', async () => {
    const key = fixture.freshKey();
    const lock = uuidCheckDelLock(fixture.redis);
    let taken: Promise<LockHolding | null> | undefined;
    const hooks: LockHooks = {
      at: async (point) => {
        if (point !== 'release-checked-before-del') return;
        // A has compared and is about to DEL; its lease runs out and B takes the lock meanwhile.
        taken = lock.acquire(key, { token: 'B', waitMs: 10_000, leaseMs: 10_000 });
        while ((await fixture.redis.get(key)) !== 'B') await sleep(2);
      },
    };
    // 300 ms: still A's when its release compares, however slow the step between; B waits out the rest.
    const a = await lock.acquire(key, { token: 'A', waitMs: 0, leaseMs: 300, hooks });
    expect(await a!.release()).toBe(true);
    expect(await fixture.redis.exists(key)).toBe(0);
    // B, still inside, finds its lock gone when it lets go.
    expect(await (await taken)!.release()).toBe(false);
  });
});
