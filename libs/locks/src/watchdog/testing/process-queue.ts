import type Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { queueKey } from '../watchdog-lock';

/** The processes with a place in the watchdog lock's queue, first first. */
export const queuedProcesses = (redis: Redis, lockKey: string) => redis.zrange(queueKey(lockKey), 0, -1);

/** Until n processes have a place in the key's queue (a head takes one once its first attempt was refused). */
export async function waitingProcesses(redis: Redis, lockKey: string, n: number): Promise<void> {
  while ((await queuedProcesses(redis, lockKey)).length < n) await sleep(5);
}
