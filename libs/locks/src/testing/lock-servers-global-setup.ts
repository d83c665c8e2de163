import { startEtcd } from './test-etcd';
import { startRedisNodes } from './test-redis-nodes';
import { startZookeeper } from './test-zookeeper';

/** jest globalSetup of the locks project: one etcd, one ZooKeeper and five RedLock nodes for the run, gone when jest exits. */
export default function globalSetup(): void {
  startEtcd();
  startZookeeper();
  startRedisNodes();
}
