export { freshKeyPrefix, testRedisOptions } from './test-redis';
