import Redis from 'ioredis';
import { openLabSession, type LabRunOptions } from './lab-session';
import { freePortRange, testLabEnv } from '../testing/test-lab';

/**
 * Sessions of one command (`npm run bench` twice, say) side by side on one Redis: each runs under a
 * key prefix of its own, held by a lease while it runs, and clears only its own keys, or those of an
 * earlier session that was killed before it could.
 */
const redis = new Redis({ host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) });
const keysOf = async (prefix: string) => (await redis.keys(`${prefix}*`)).sort();

afterAll(() => redis.disconnect());

/** A session of a command whose key prefix starts with a test prefix of its own, on free ports. */
async function command() {
  const basePort = await freePortRange(1);
  const { REDIS_KEY_PREFIX: commandPrefix, ...env } = testLabEnv();
  const own = { keyPrefix: commandPrefix!, basePort, storeProxy: false, log: (line: string) => process.stderr.write(`${line}\n`) };
  const options: LabRunOptions = { instances: 1, outDir: '.', command: 'two-sessions.int-spec', env, strategies: ['lua-decrement'] };
  return { basePort, commandPrefix: commandPrefix!, open: () => openLabSession(options, own) };
}

it('a second session on the ports of a running one fails to start and leaves the running one alone: its instance answers, none of its keys is cleared', async () => {
  const { basePort, commandPrefix, open } = await command();
  const signalHandlers = process.listenerCount('SIGINT');

  const running = await open();
  try {
    // Its queues' keys (those that do not expire): what the second session's stop must not touch.
    const kept = (await keysOf(`${running.keyPrefix}:`)).filter((key) => key.endsWith(':meta'));
    expect(kept.length).toBeGreaterThan(0);

    await expect(open()).rejects.toThrow(/before it listened|did not start listening/);

    expect((await fetch(`http://127.0.0.1:${basePort}/health`)).status).toBe(200);
    expect(await keysOf(`${running.keyPrefix}:`)).toEqual(expect.arrayContaining(kept));
  } finally {
    await running.stop();
  }
  // Both sessions cleared what they made, and nothing else; neither left its Ctrl-C handler behind.
  expect(await keysOf(commandPrefix)).toEqual([]);
  expect(process.listenerCount('SIGINT')).toBe(signalHandlers);
}, 180_000);

it("clears, as it starts, the keys of an earlier session that was killed before it could (its lease ran out), and not a running session's", async () => {
  const { commandPrefix, open } = await command();
  // What a session killed outright leaves (its lease expired 30 s after), and what a running one holds.
  const killed = [`${commandPrefix}-0dead0:bull:runs:meta`, `${commandPrefix}-0dead0:instances`];
  const running = [`${commandPrefix}-a11ce0:bull:runs:meta`, `${commandPrefix}-a11ce0:session`];
  for (const key of [...killed, ...running]) await redis.set(key, 'left');

  const session = await open();
  try {
    expect(await keysOf(`${commandPrefix}-0dead0:`)).toEqual([]);
    expect(await keysOf(`${commandPrefix}-a11ce0:`)).toEqual(running.sort());
  } finally {
    await session.stop();
    await redis.del(...running);
  }
  expect(await keysOf(commandPrefix)).toEqual([]);
}, 180_000);
