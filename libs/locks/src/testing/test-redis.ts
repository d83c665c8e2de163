import Redis, { type RedisOptions } from 'ioredis';

/** The real Redis the integration tests talk to: the local one by default, overridable like the service's. */
export function testRedisOptions(): RedisOptions {
  return { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
}

/** A Redis key prefix of the test's own, deleted afterwards. */
export function freshKeyPrefix(): string {
  return `oltest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface TestRedis {
  /** The connection, open from beforeAll to afterAll. */
  readonly redis: Redis;
  /** A lock key no other test (or earlier run) uses. */
  freshKey(): string;
}

/** A Redis connection for one test file (beforeAll), its keys under the file's own prefix deleted afterwards (afterAll). */
export function useTestRedis(): TestRedis {
  const prefix = freshKeyPrefix();
  let redis: Redis | undefined;
  let keys = 0;
  beforeAll(() => {
    redis = new Redis(testRedisOptions());
  });
  afterAll(async () => {
    if (!redis) return;
    const left = await redis.keys(`${prefix}:*`);
    if (left.length) await redis.del(...left);
    await redis.quit();
  });
  return {
    get redis() {
      if (!redis) throw new Error('useTestRedis: the connection opens in beforeAll; use it inside a test');
      return redis;
    },
    freshKey: () => `${prefix}:lock:${++keys}`,
  };
}
