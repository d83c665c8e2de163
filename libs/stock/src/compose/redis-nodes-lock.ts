import { connectRedisNodes, type DistributedLock } from '@oversell/locks';
import type Redis from 'ioredis';
import type { ServiceLock } from './service-lock';

/**
 * How long one RedLock node may take to answer before it counts as down. redis.io wants it small next to
 * the TTL (2 s by default), but the timeout runs on this process's own event loop: under the lab's loads
 * on a 2-core box a busy process answers its timers late, and at 200 ms healthy nodes were counted out
 * (lock_unavailable, as the lock bench saw). What it takes still comes off the holder's validity.
 */
const NODE_TIMEOUT_MS = 500;

/**
 * A quorum lock (`build`) over the independent Redis nodes at `addresses` (REDLOCK_NODES: host:port,
 * comma-separated), connected once, at the first acquire; a node down then is retried in the background.
 */
export function redisNodesLock(addresses: string, build: (nodes: Redis[]) => DistributedLock): ServiceLock {
  const nodes = connectRedisNodes(addresses.split(','), NODE_TIMEOUT_MS);
  const lock = nodes.then(build);
  return {
    lock: { name: 'redis-nodes', acquire: async (key, options) => (await lock).acquire(key, options) },
    close: async () => (await nodes).forEach((node) => node.disconnect()),
  };
}
