import Redis from 'ioredis';
import { once } from 'node:events';
import { join } from 'node:path';
import { forkTypeScript } from './fork-typescript';
import { freshKeyPrefix, testRedisOptions } from './test-redis';

/**
 * `processes` OS processes (redlock-contender.ts), each with `clients` clients looping `rounds` times
 * acquire → read-increment-write of a counter on the test Redis → release, on the shared RedLock
 * nodes. Returns every counter value read and the counter's final value.
 */
export async function redlockContention(lock: 'redlock' | 'redlock-lib', processes: number, clients: number, rounds: number): Promise<{ reads: number[]; counter: number }> {
  const prefix = freshKeyPrefix();
  const [lockKey, counterKey] = [`${prefix}:lock`, `${prefix}:counter`];
  const reports = Array.from({ length: processes }, async () => {
    const child = forkTypeScript(join(__dirname, 'redlock-contender.ts'), [lock, lockKey, counterKey, String(clients), String(rounds)]);
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`redlock contender exited (${code}) before reporting`);
    });
    const [message] = (await Promise.race([once(child, 'message'), exited])) as [{ reads: number[] }];
    return message.reads;
  });
  const reads = (await Promise.all(reports)).flat();
  const redis = new Redis(testRedisOptions());
  try {
    return { reads, counter: Number(await redis.get(counterKey)) };
  } finally {
    await redis.del(counterKey);
    await redis.quit();
  }
}
