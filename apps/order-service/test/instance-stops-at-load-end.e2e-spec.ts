import type { RunView } from '@oversell/contracts';
import { freshKeyPrefix, testRedisOptions, until } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { flushRequestsChannel } from '../src/redis-keys';
import type { ServiceProcess } from './service-process';
import { START_TIMEOUT_MS, startVictimAndPeer, stopVictimAndPeer } from './victim-and-peer';

/**
 * An instance killed as the load ends, at the moment the run worker asks for the figures: it never
 * answers. The run fails naming it as stopped, as a death during the load is named, once the registry
 * sees it gone; before, it failed only at the ack timeout, saying the instance "did not report its figures".
 */
const keyPrefix = freshKeyPrefix();
let redis: Redis;
let listener: Redis;
let victim: ServiceProcess;
let peer: ServiceProcess;

beforeAll(async () => {
  redis = new Redis(testRedisOptions());
  listener = new Redis(testRedisOptions());
  [victim, peer] = await startVictimAndPeer(redis, keyPrefix);
}, START_TIMEOUT_MS);

afterAll(async () => {
  listener?.disconnect();
  await stopVictimAndPeer([victim, peer], redis, keyPrefix);
});

it('fails the run naming the instance that stopped before it reported its figures', async () => {
  // The exact moment: the flush request, which every instance receives once the load is over.
  await listener.subscribe(flushRequestsChannel(keyPrefix));
  listener.on('message', () => victim.signal('SIGKILL'));

  const created = await peer.request('/api/runs', { method: 'POST', body: { strategy: 'lua-decrement', initialStock: 20, load: { connections: 2, totalRequests: 20 } } });
  expect(created.status).toBe(201);
  let run: RunView = created.body;
  await until(
    async () => {
      run = (await peer.request(`/api/runs/${run.id}`)).body;
      return run.status === 'completed' || run.status === 'failed';
    },
    'the run ends',
    120_000,
  );
  expect(victim.alive).toBe(false);
  expect(run.status).toBe('failed');
  expect(run.failure).toContain(`instance ${victim.instanceId} (port`);
  expect(run.failure).toContain('stopped as the load ended, before it reported its figures');
}, 300_000);
