import Redis from 'ioredis';

/**
 * The Redis key prefix of a throwaway lab (a test's, the bench's, the pitfalls'), checked when it
 * starts: clearing the demo's default prefix on stop would wipe the demo's run history.
 */
export function throwawayPrefix(env: NodeJS.ProcessEnv): string {
  const prefix = env.REDIS_KEY_PREFIX;
  if (!prefix || prefix === 'ol') throw new Error('a lab that clears its keys on stop needs a REDIS_KEY_PREFIX of its own (not the demo\'s "ol")');
  // As the service requires (env.schema.ts): a glob character would make the clearing pattern match other labs' keys.
  if (!/^[\w.-]+$/.test(prefix)) throw new Error(`REDIS_KEY_PREFIX "${prefix}" may hold only letters, digits, "_", "." and "-"`);
  return prefix;
}

/**
 * Deletes every key under the prefix on the lab's stock Redis; returns how many. Keys left by
 * earlier labs pile up in a shared Redis, and every product reset SCANs the whole keyspace for its
 * own earlier keys: a million stale keys cost each reset about a second.
 */
export async function clearLabKeys(env: NodeJS.ProcessEnv, prefix: string): Promise<number> {
  const redis = labRedis(env);
  let cleared = 0;
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 5000 }) as AsyncIterable<string[]>) {
      if (keys.length) cleared += await redis.unlink(...keys);
    }
    return cleared;
  } finally {
    redis.disconnect();
  }
}

/**
 * A client of the lab's stock Redis (REDIS_HOST, REDIS_PORT, REDIS_PASSWORD), not yet connected. Its
 * errors reach the commands that meet them; unheard, ioredis would print a stack per reconnection
 * attempt over the command's progress bar.
 */
export function labRedis(env: NodeJS.ProcessEnv): Redis {
  return new Redis({ host: env.REDIS_HOST ?? '127.0.0.1', port: Number(env.REDIS_PORT ?? 6379), password: env.REDIS_PASSWORD || undefined, lazyConnect: true }).on('error', () => undefined);
}
