import Redis from 'ioredis';

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
