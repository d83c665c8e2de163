import Redis from 'ioredis';
import { useScripts } from '../lua-script';
import { freshKeyPrefix, testRedisOptions } from '../testing';
import { RELEASE_LOCK } from './uuid-lua.lock';

let redis: Redis;
const key = `${freshKeyPrefix()}:lock`;

beforeAll(() => {
  redis = useScripts(new Redis(testRedisOptions()), [RELEASE_LOCK]);
});

afterAll(async () => {
  await redis.del(key);
  await redis.quit();
});

describe('release-lock-1.lua (uuid-lua)', () => {
  it('refuses to delete a lock it does not own', async () => {
    await redis.set(key, 'token-of-b', 'PX', 10_000);
    expect(await redis.releaseLockV1(key, 'token-of-a')).toBe(0);
    expect(await redis.get(key)).toBe('token-of-b');
  });

  it('deletes the lock its owner holds', async () => {
    await redis.set(key, 'token-of-a', 'PX', 10_000);
    expect(await redis.releaseLockV1(key, 'token-of-a')).toBe(1);
    expect(await redis.exists(key)).toBe(0);
  });
});
