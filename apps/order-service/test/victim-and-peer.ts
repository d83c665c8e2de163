import type { RunView } from '@oversell/contracts';
import { freshKeyPrefix, testRedisOptions, until } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { startServiceProcess, type ServiceProcess } from './service-process';

/** Two processes of ts-node compile on a shared 2-core machine: minutes, not seconds. */
export const START_TIMEOUT_MS = 300_000;

export const portOf = (p: ServiceProcess) => Number(new URL(p.url).port);

/** The victim's index among the live instances, in port order: how a fault names it. */
export const victimIndexOf = (victim: ServiceProcess, peer: ServiceProcess) => (portOf(victim) < portOf(peer) ? 0 : 1);

/** POSTs a run to `runner` (the peer: it has the run worker) and waits until it has completed or failed. */
export async function runToItsEnd(runner: ServiceProcess, body: object, timeoutMs = 120_000): Promise<RunView> {
  const created = await runner.request('/api/runs', { method: 'POST', body });
  expect(created.status).toBe(201);
  let run: RunView = created.body;
  await until(
    async () => {
      run = (await runner.request(`/api/runs/${run.id}`)).body;
      return run.status === 'completed' || run.status === 'failed';
    },
    'the run ends',
    timeoutMs,
  );
  return run;
}

/**
 * Two service processes on the same keys for the fault tests: the victim, with no run worker (so a run
 * survives its crash), and the peer, which runs the runs. Resolves once both beat under the prefix, so a
 * fault can name an instance by its index among the live ones.
 */
export async function startVictimAndPeer(redis: Redis, keyPrefix: string): Promise<[victim: ServiceProcess, peer: ServiceProcess]> {
  const env = { REDIS_KEY_PREFIX: keyPrefix, LOCK_WAIT_TIMEOUT_MS: '400' };
  const pair = await Promise.all([startServiceProcess({ env: { ...env, RUN_WORKER: 'false' } }), startServiceProcess({ env: { ...env, RUN_WORKER: 'true' } })]);
  await until(async () => (await redis.hlen(`${keyPrefix}:instances`)) === 2, 'both instances beat');
  return pair;
}

/** The victim and the peer of a test file, on a key prefix of its own, with a Redis client on it. */
export interface VictimAndPeer {
  readonly keyPrefix: string;
  readonly redis: Redis;
  readonly victim: ServiceProcess;
  readonly peer: ServiceProcess;
}

/** Starts the victim and the peer before the file's tests (startVictimAndPeer) and stops them after. */
export function useVictimAndPeer(): VictimAndPeer {
  const lab = { keyPrefix: freshKeyPrefix() } as { -readonly [K in keyof VictimAndPeer]: VictimAndPeer[K] };
  beforeAll(async () => {
    lab.redis = new Redis(testRedisOptions());
    [lab.victim, lab.peer] = await startVictimAndPeer(lab.redis, lab.keyPrefix);
  }, START_TIMEOUT_MS);
  afterAll(() => stopVictimAndPeer([lab.victim, lab.peer], lab.redis, lab.keyPrefix));
  return lab;
}

/** Stops both (either may be missing if the start failed), deletes the prefix's keys, closes `redis`. */
export async function stopVictimAndPeer(processes: (ServiceProcess | undefined)[], redis: Redis, keyPrefix: string): Promise<void> {
  await Promise.all(processes.map((p) => p?.stop()));
  const keys = await redis.keys(`${keyPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}
