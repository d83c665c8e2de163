import { testMysqlSettings, testRedisOptions } from '@oversell/stock/testing';

/** The service's settings for the test MariaDB and Redis, its keys under `keyPrefix`. */
export function testStoresEnv(keyPrefix: string): NodeJS.ProcessEnv {
  const mysql = testMysqlSettings();
  const redis = testRedisOptions();
  return {
    MYSQL_HOST: mysql.host,
    MYSQL_PORT: String(mysql.port),
    MYSQL_USER: mysql.user,
    MYSQL_PASSWORD: mysql.password,
    MYSQL_DATABASE: mysql.database,
    REDIS_HOST: redis.host,
    REDIS_PORT: String(redis.port),
    REDIS_KEY_PREFIX: keyPrefix,
  };
}
