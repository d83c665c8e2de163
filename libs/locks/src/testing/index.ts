export { Gate } from './gate';
export { freshKeyPrefix, testRedisOptions, useTestRedis, type TestRedis } from './test-redis';
export { testMysqlServer, useTestLockTable, type TestLockTable } from './test-mysql';
export { startEtcd, testEtcdClient } from './test-etcd';
export { forkTypeScript } from './fork-typescript';
export { expireSession, startZookeeper, testZookeeperClient, testZookeeperConnect } from './test-zookeeper';
export { RedisNodeGroup, startRedisNodes, testRedisNodes, useRedisNodeGroup } from './test-redis-nodes';
export { counterRounds, type UnguardedCounter } from './counter-rounds';
export { SENTINEL_MASTER, SentinelFailover, throughSentinels } from '../failover/testing/sentinel-failover';
