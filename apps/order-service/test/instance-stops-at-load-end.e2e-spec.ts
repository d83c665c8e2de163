import { freshKeyPrefix, testRedisOptions } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { flushRequestsChannel } from '@oversell/lab';
import type { ServiceProcess } from './service-process';
import { runToItsEnd, START_TIMEOUT_MS, startVictimAndPeer, stopVictimAndPeer, victimIndexOf } from './victim-and-peer';

/**
 * An instance killed as the load ends, at the moment the run worker asks for the figures: it never
 * answers. The run fails naming it as stopped, as a death during the load is named, once the registry
 * sees it gone; before, it failed only at the ack timeout, saying the instance "did not report its figures".
 * An instance its own stop-the-world fault freezes sends no heartbeat either, and is not gone.
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

const victimIndex = () => victimIndexOf(victim, peer);

it('does not take an instance frozen by its own stop-the-world fault, past the silence limit, for one that stopped', async () => {
  // 5 s without a heartbeat or a figure batch: beyond INSTANCE_SILENT_AFTER_MS, within the freeze the run asked for.
  const run = await runToItsEnd(peer, {
    strategy: 'uuid-lua',
    initialStock: 20,
    lockTtlMs: 30_000,
    load: { connections: 2, totalRequests: 6 },
    faults: [{ kind: 'stop-the-world', at: 'lock-acquired', durationMs: 5_000, once: true, instance: victimIndex() }],
  });
  expect({ status: run.status, failure: run.failure }).toEqual({ status: 'completed', failure: null });
  expect(run.result!.faults).toEqual([expect.objectContaining({ kind: 'stop-the-world', instance: victim.instanceId })]);
  expect(victim.alive).toBe(true);
}, 300_000);

it('fails the run naming the instance that stopped before it reported its figures', async () => {
  // The exact moment: the flush request, which every instance receives once the load is over. The victim
  // cannot have answered it yet: the load ends about 12 s after its order paused at lock-acquired (the load
  // tool gives up on that order after its 10 s request timeout, the orders left wait out their lock wait),
  // and the pause lasts 30 s, so that order is still in flight and the victim's drain waits for it. A 12 s
  // pause ended with the load, and the flush raced the victim's answer: 1 of 5 runs here failed so, and a CI run.
  await listener.subscribe(flushRequestsChannel(keyPrefix));
  listener.on('message', () => victim.signal('SIGKILL'));

  const run = await runToItsEnd(peer, {
    strategy: 'setnx-expire',
    initialStock: 20,
    // Outlasts the pause: no other order gets the lock meanwhile.
    lockTtlMs: 60_000,
    load: { connections: 2, totalRequests: 8 },
    faults: [{ kind: 'pause', at: 'lock-acquired', durationMs: 30_000, once: true, instance: victimIndex() }],
  });
  expect(victim.alive).toBe(false);
  expect(run.status).toBe('failed');
  expect(run.failure).toContain(`instance ${victim.instanceId} (port`);
  expect(run.failure).toContain('stopped as the load ended, before it reported its figures');
}, 300_000);
