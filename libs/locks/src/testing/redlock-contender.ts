/**
 * A separate process contending for one RedLock (ours or the library's) on the nodes in REDLOCK_NODES,
 * with its own node clients, as one service instance would. argv: <redlock|redlock-lib> <lockKey>
 * <counterKey> <clients> <rounds>. Each client loops `rounds` times: acquire → GET the counter on the
 * shared test Redis → SET it + 1 → release, and the process sends {reads: [every counter value read]}.
 */
import Redis from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { redlockLib } from '../redlock-lib/redlock-lib.lock';
import { redlock } from '../redlock/redlock.lock';
import { connectRedisNodes } from '../redis-nodes';
import { testRedisNodes } from './test-redis-nodes';
import { testRedisOptions } from './test-redis';

const LOCKS: Record<string, (nodes: Redis[]) => DistributedLock> = { redlock, 'redlock-lib': redlockLib };

async function contend(lock: DistributedLock, counter: Redis, lockKey: string, counterKey: string, rounds: number): Promise<number[]> {
  const reads: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const holding = await lock.acquire(lockKey, { waitMs: 30_000, leaseMs: 5000 });
    if (!holding) throw new Error(`${lockKey} not had within 30 s`);
    const read = Number((await counter.get(counterKey)) ?? 0);
    await counter.set(counterKey, read + 1);
    reads.push(read);
    if ((await holding.release()) !== true) throw new Error('released a lock it no longer held');
  }
  return reads;
}

async function main(): Promise<void> {
  const [lockName, lockKey, counterKey, clients, rounds] = process.argv.slice(2);
  const nodes = await connectRedisNodes(testRedisNodes(), 1000);
  const counter = new Redis(testRedisOptions());
  try {
    const lock = LOCKS[lockName](nodes);
    const all = await Promise.all(Array.from({ length: Number(clients) }, () => contend(lock, counter, lockKey, counterKey, Number(rounds))));
    process.send!({ reads: all.flat() }, () => process.exit(0));
  } finally {
    nodes.forEach((node) => node.disconnect());
    counter.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
