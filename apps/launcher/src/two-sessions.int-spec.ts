import Redis from 'ioredis';
import { openLabSession } from './lab-session';
import { freePortRange, testLabEnv } from './testing/test-lab';

/**
 * `npm run bench` started while one is already running (the same command, so the same ports and key
 * prefix). The second cannot listen and stops the lab it began, keys included: those keys must be
 * its own, not the running bench's stock, run queue and figures.
 */
it('a second session on the ports of a running one fails to start and leaves the running one alone: its instance answers, none of its keys is cleared', async () => {
  const basePort = await freePortRange(1);
  const { REDIS_KEY_PREFIX: commandPrefix, ...env } = testLabEnv();
  const own = { keyPrefix: commandPrefix!, basePort, storeProxy: false, log: (line: string) => process.stderr.write(`${line}\n`) };
  const options = { instances: 1, outDir: '.', command: 'two-sessions.int-spec', env, strategies: ['lua-decrement'] as const };
  const redis = new Redis({ host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) });
  const keysOf = async (prefix: string) => (await redis.keys(`${prefix}*`)).sort();

  const running = await openLabSession(options, own);
  try {
    // Its queues' keys (those that do not expire): what the second session's stop must not touch.
    const kept = (await keysOf(`${running.keyPrefix}:`)).filter((key) => key.endsWith(':meta'));
    expect(kept.length).toBeGreaterThan(0);

    await expect(openLabSession(options, own)).rejects.toThrow(/before it listened|did not start listening/);

    expect((await fetch(`http://127.0.0.1:${basePort}/health`)).status).toBe(200);
    expect(await keysOf(`${running.keyPrefix}:`)).toEqual(expect.arrayContaining(kept));
  } finally {
    await running.stop();
  }
  // Both sessions cleared what they made, and nothing else.
  expect(await keysOf(commandPrefix!)).toEqual([]);
  redis.disconnect();
}, 180_000);
