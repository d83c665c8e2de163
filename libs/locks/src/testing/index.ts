export { Gate } from './gate';
export { freshKeyPrefix, testRedisOptions, useTestRedis, type TestRedis } from './test-redis';
