import Redis from 'ioredis';
import type { DistributedLock } from '../../distributed-lock';
import { connectRedisNodes } from '../../redis-nodes';
import { redlock } from '../../redlock/redlock.lock';
import { uuidLuaLock } from '../../uuid-lua/uuid-lua.lock';
import { WatchdogLock } from '../../watchdog/watchdog-lock';
import { throughSentinels } from './sentinel-failover';

export const FAILOVER_LOCKS = ['uuid-lua', 'watchdog', 'watchdog-fenced', 'redlock'] as const;
export type FailoverLockName = (typeof FAILOVER_LOCKS)[number];

export interface ConnectedLock {
  lock: DistributedLock;
  close(): void;
}

/**
 * A lock as one service instance holds it: the single-master locks with clients that find the master
 * through the Sentinels in `addresses`, RedLock with clients of the nodes in `addresses`.
 */
export async function connectLock(name: FailoverLockName, addresses: string): Promise<ConnectedLock> {
  if (name === 'redlock') {
    const nodes = await connectRedisNodes(addresses.split(','), 1000);
    return { lock: redlock(nodes), close: () => nodes.forEach((node) => node.disconnect()) };
  }
  const redis = sentinelClient(addresses);
  if (name === 'uuid-lua') return { lock: uuidLuaLock(redis), close: () => redis.disconnect() };
  const subscriber = sentinelClient(addresses);
  return {
    lock: new WatchdogLock(redis, subscriber, { fenced: name === 'watchdog-fenced' }),
    close: () => [redis, subscriber].forEach((client) => client.disconnect()),
  };
}

/** While the Sentinels still name the dead master, every reconnect fails and ioredis says so; it retries until they name the new one. */
function sentinelClient(addresses: string): Redis {
  return new Redis(throughSentinels(addresses)).on('error', () => undefined);
}

/** One order's read-check-write of a stock counter (on the shared test Redis, which no fault touches): whether it sold. */
export async function sellOne(stock: Redis, stockKey: string): Promise<{ read: number; sold: boolean }> {
  const read = Number(await stock.get(stockKey));
  if (read < 1) return { read, sold: false };
  await stock.set(stockKey, read - 1);
  return { read, sold: true };
}
