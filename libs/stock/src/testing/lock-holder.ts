/**
 * A separate process that takes a watchdog lock and holds it until killed, so a test can check the
 * lease outlives the holder's business and ends soon after the holder dies.
 * argv: <lockKey> <owner> <leaseMs>
 */
import Redis from 'ioredis';
import { LUA_SCRIPTS } from '../strategies/lua-scripts';
import { LockWakeups } from '../strategies/watchdog/lock-wakeups';
import { WatchdogLock } from '../strategies/watchdog/watchdog-lock';
import { testRedisOptions } from './test-services';

async function main(): Promise<void> {
  const [key, owner, leaseMs] = process.argv.slice(2);
  const redis = new Redis(testRedisOptions());
  for (const script of Object.values(LUA_SCRIPTS)) redis.defineCommand(script.command, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  const lock = new WatchdogLock(redis, new LockWakeups(new Redis(testRedisOptions())));
  const holding = await lock.tryLock(key, owner, { waitMs: 0, leaseMs: Number(leaseMs) });
  if (!holding) throw new Error(`could not take ${key}`);
  process.send!({ type: 'acquired' });
  // Keep the event loop alive: the watchdog's own timer is unref'd on purpose.
  setInterval(() => undefined, 60_000);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
