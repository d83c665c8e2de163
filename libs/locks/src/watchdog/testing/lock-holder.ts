/**
 * A separate process that takes a watchdog lock and holds it until killed, so a test can check the
 * lease outlives the holder's business and ends soon after the holder dies.
 * argv: <lockKey> <owner> <leaseMs>
 */
import Redis from 'ioredis';
import { WatchdogLock } from '../watchdog-lock';
import { testRedisOptions } from '../../testing';

async function main(): Promise<void> {
  const [key, owner, leaseMs] = process.argv.slice(2);
  const redis = new Redis(testRedisOptions());
  const lock = new WatchdogLock(redis, new Redis(testRedisOptions()));
  const holding = await lock.acquire(key, { token: owner, waitMs: 0, leaseMs: Number(leaseMs) });
  if (!holding) throw new Error(`could not take ${key}`);
  process.send!({ type: 'acquired' });
  // Keep the event loop alive: the watchdog's own timer is unref'd on purpose.
  setInterval(() => undefined, 60_000);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
