import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';

/** A Redis server's address, host and port. */
export interface Address {
  host: string;
  port: number;
}

export const parseAddress = (address: string): Address => ({ host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) });

/**
 * One command round on a server, over a connection of its own that neither retries nor outlives it: the
 * faults' hands on servers they stop and restart, where a pooled client would queue and resend.
 */
export async function onServer<T>(address: Address, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ ...address, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

const POLL_MS = 100;

/** Polls `check` every 100 ms until it returns something (its errors count as nothing yet); fails after waitMs, naming `what`. */
export async function pollFor<T>(what: string, waitMs: number, check: () => Promise<T | null | false>): Promise<T> {
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    const found = await check().catch(() => null);
    if (found) return found;
    if (Date.now() > giveUpAt) throw new Error(`waited ${waitMs / 1000} s for ${what}`);
    await sleep(POLL_MS);
  }
}
