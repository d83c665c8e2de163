import type { DistributedLock } from './distributed-lock';

/**
 * A lock on a server of its own (etcd, ZooKeeper, RedLock's nodes), as its folder's `connect…()` hands
 * it out: the lock, and how to let go of the connection to that server. The strategies, the lock bench
 * and the tests connect through the same function, so a lock's session handling lives in its folder once.
 */
export interface ConnectedLock {
  lock: DistributedLock;
  close(): unknown;
}
