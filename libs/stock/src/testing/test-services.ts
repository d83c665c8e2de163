import type { RedisOptions } from 'ioredis';
import type { MysqlConnectionSettings } from '../persistence';

/** The real services the integration tests talk to: the local ones by default, overridable like the service's. */
export function testMysqlSettings(): MysqlConnectionSettings {
  return {
    host: process.env.MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.MYSQL_PORT ?? 3306),
    user: process.env.MYSQL_USER ?? 'root',
    password: process.env.MYSQL_PASSWORD ?? '',
    database: process.env.MYSQL_TEST_DATABASE ?? 'oversell_lab_test',
  };
}

export function testRedisOptions(): RedisOptions {
  return { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
}

/** A product id no other test (or earlier run) uses, so tests never share stock. */
export function freshProductId(): number {
  return 100_000 + Math.floor(Math.random() * 2_000_000_000);
}

/** A Redis key prefix of the test's own, deleted afterwards. */
export function freshKeyPrefix(): string {
  return `oltest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
