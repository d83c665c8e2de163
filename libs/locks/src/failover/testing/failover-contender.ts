/**
 * The second service instance of the failover pitfall, an OS process of its own: connects as each
 * lock's clients do (connectLock) and sends {ready: true}; told 'go', asks for each lock at once, for
 * up to 5 s, and, granted one, sells one unit of its stock key on the shared test Redis while holding it.
 * argv: <addresses> then <lock name> <lockKey> <stockKey>, repeated.
 * Then sends, in argv's order, {granted: false} or {granted: true, at: Date.now() at the grant, fencingToken, read, sold}.
 */
import Redis from 'ioredis';
import { once } from 'node:events';
import { testRedisOptions } from '../../testing/test-redis';
import { connectLock, sellOne, type ConnectedLock, type FailoverLockName } from './failover-locks';

async function contend({ lock }: ConnectedLock, stock: Redis, lockKey: string, stockKey: string) {
  const holding = await lock.acquire(lockKey, { waitMs: 5000, leaseMs: 30_000 });
  if (!holding) return { granted: false };
  const at = Date.now();
  const sale = await sellOne(stock, stockKey);
  await holding.release();
  return { granted: true, at, fencingToken: holding.fencingToken, ...sale };
}

async function main(): Promise<void> {
  const [addresses, ...triples] = process.argv.slice(2);
  const jobs = Array.from({ length: triples.length / 3 }, (_, i) => triples.slice(i * 3, i * 3 + 3));
  const locks = await Promise.all(jobs.map(([name]) => connectLock(name as FailoverLockName, addresses)));
  const stock = new Redis(testRedisOptions());
  try {
    const told = once(process, 'message');
    process.send!({ ready: true });
    await told;
    const reports = await Promise.all(jobs.map(([, lockKey, stockKey], i) => contend(locks[i], stock, lockKey, stockKey)));
    process.send!(reports, () => process.exit(0));
  } finally {
    locks.forEach(({ close }) => close());
    stock.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
