import Redis from 'ioredis';
import type { ConnectedLock } from './connected-lock';
import type { DistributedLock } from './distributed-lock';

/**
 * How long one RedLock node may take to answer before it counts as down, as the lab and the lock bench
 * connect. redis.io wants it small next to the TTL (2 s there), but the timeout runs on the client's own
 * event loop: under the lab's loads on a 2-core box (load 22) a busy process answers its timers late, and
 * at 200 ms healthy nodes were counted out (lock_unavailable). What it takes still comes off the validity.
 */
export const REDLOCK_NODE_TIMEOUT_MS = 500;

/**
 * Clients for independent Redis masters, as a quorum lock (RedLock) needs them: a node that is down
 * fails a command at once instead of queueing it for a reconnect that may come after the lock's TTL
 * (and would then SET a lock nobody is waiting for), and a node that hangs fails it after
 * `nodeTimeoutMs`, which redis.io wants small next to the TTL so one dead node cannot eat the lease.
 * Nothing is resent after a reconnect for the same reason. Connects them all; a node that is down now
 * is left reconnecting in the background (every 20–200 ms), so it counts again once it is back.
 */
export async function connectRedisNodes(addresses: readonly string[], nodeTimeoutMs = 100): Promise<Redis[]> {
  const nodes = addresses.map((address) => {
    const [host, port] = address.split(':');
    return new Redis({
      host,
      port: Number(port),
      lazyConnect: true,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      commandTimeout: nodeTimeoutMs,
      retryStrategy: (times) => Math.min(times * 20, 200),
    });
  });
  // A node's failures reach the commands that met them (a node that did not answer); without a
  // listener ioredis would also print every one of them while a node is down.
  for (const node of nodes) node.on('error', () => undefined);
  await Promise.allSettled(nodes.map((node) => node.connect()));
  return nodes;
}

/** A Redis server's uptime in whole seconds from its INFO server section; null when the section has none. */
export function uptimeSeconds(infoServer: string): number | null {
  const found = /^uptime_in_seconds:(\d+)/m.exec(infoServer);
  return found ? Number(found[1]) : null;
}

/**
 * A quorum lock (`build`: RedLock by hand, by library, …) over the independent Redis nodes at `addresses`
 * (host:port, comma-separated), connected once, at the first acquire; a node down then is retried in the
 * background.
 */
export function connectQuorumLock(addresses: string, build: (nodes: Redis[]) => DistributedLock, nodeTimeoutMs = REDLOCK_NODE_TIMEOUT_MS): ConnectedLock {
  const nodes = connectRedisNodes(addresses.split(','), nodeTimeoutMs);
  const lock = nodes.then(build);
  return {
    lock: { name: 'redis-nodes', acquire: async (key, options) => (await lock).acquire(key, options) },
    close: async () => (await nodes).forEach((node) => node.disconnect()),
  };
}
