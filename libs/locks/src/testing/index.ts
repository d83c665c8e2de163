export { Gate } from './gate';
export { freshKeyPrefix, testRedisOptions, useTestRedis, type TestRedis } from './test-redis';
export { useTestLockTable, type TestLockTable } from './test-mysql';
export { startEtcd, testEtcdClient } from './test-etcd';
export { forkTypeScript } from './fork-typescript';
