import Redis from 'ioredis';

/** The connections one process hands to the lock under test: every lock factory takes what it needs. */
export interface LockClients {
  redis: Redis;
  /** A connection of its own for locks whose waiters listen for release messages (subscriber mode). */
  subscriber: Redis;
}

/** The shared Redis, overridable like the service's. */
export function redisOptions() {
  return { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
}

/**
 * Both connections ready before any lock sees them: a SUBSCRIBE sent while ioredis is still in its
 * ready check (INFO) puts the connection in subscriber mode under it, and the check fails.
 */
export async function connectClients(): Promise<LockClients> {
  const clients = { redis: new Redis({ ...redisOptions(), lazyConnect: true }), subscriber: new Redis({ ...redisOptions(), lazyConnect: true }) };
  await Promise.all([clients.redis.connect(), clients.subscriber.connect()]);
  return clients;
}

export async function closeClients(clients: LockClients): Promise<void> {
  await Promise.all([clients.redis.quit(), clients.subscriber.quit()]);
}
