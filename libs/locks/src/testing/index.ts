export { Gate } from './gate';
export { freshKeyPrefix, testRedisOptions } from './test-redis';
