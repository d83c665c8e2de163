/**
 * A separate process that takes a fenced watchdog lock `count` times in a row and, while holding it,
 * appends the grant's token to a Redis list: the list is then the order in which grants held the lock.
 * argv: <lockKey> <logKey> <count>; sends 'ready', starts on 'go' (so all processes race), sends {tokens} when done.
 */
import Redis from 'ioredis';
import { testRedisOptions } from '../../testing';
import { WatchdogLock } from '../watchdog-lock';

async function main(): Promise<void> {
  const [key, logKey, count] = process.argv.slice(2);
  const redis = new Redis(testRedisOptions());
  const subscriber = new Redis(testRedisOptions());
  const lock = new WatchdogLock(redis, subscriber, { fenced: true });
  const tokens: number[] = [];
  await redis.ping();
  const go = new Promise((resolve) => process.once('message', resolve));
  process.send!('ready');
  await go;
  for (let i = 0; i < Number(count); i++) {
    const holding = await lock.acquire(key, { waitMs: 10_000, leaseMs: 2000 });
    if (!holding?.fencingToken) throw new Error(`no fenced grant of ${key}`);
    tokens.push(holding.fencingToken);
    await redis.rpush(logKey, holding.fencingToken);
    await holding.release();
  }
  process.send!({ tokens }, () => void Promise.all([redis.quit(), subscriber.quit()]).then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
