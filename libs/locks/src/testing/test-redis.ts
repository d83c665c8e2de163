import type { RedisOptions } from 'ioredis';

/** The real Redis the integration tests talk to: the local one by default, overridable like the service's. */
export function testRedisOptions(): RedisOptions {
  return { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
}

/** A Redis key prefix of the test's own, deleted afterwards. */
export function freshKeyPrefix(): string {
  return `oltest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
