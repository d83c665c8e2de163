import { freshKeyPrefix, testRedisOptions } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { flushAckChannel, flushRequestsChannel } from '../redis-keys';
import { announceCrash, requestFlush, type FlushAck, type FlushRequest, type FlushSpec } from './flush-protocol';

/** The run worker's side of the flush protocol on the real Redis; the test plays the one instance asked. */
const keyPrefix = freshKeyPrefix();
const PEER = 'peer-instance';
let redis: Redis;
let peer: Redis;

beforeAll(async () => {
  redis = new Redis(testRedisOptions());
  peer = new Redis(testRedisOptions());
  await peer.subscribe(flushRequestsChannel(keyPrefix));
});

afterAll(async () => {
  await Promise.all([redis.quit(), peer.quit()]);
});

const flushSpec = (overrides: Partial<FlushSpec> = {}): FlushSpec => ({ keyPrefix, runId: randomUUID(), instances: [PEER], recordedCrashes: async () => [], drainTimeoutMs: 50, ackTimeoutMs: 10_000, ...overrides });

/** The next flush request the peer hears. */
function nextRequest(): Promise<FlushRequest> {
  return new Promise((resolve) => peer.once('message', (_channel, message: string) => resolve(JSON.parse(message) as FlushRequest)));
}

function ack(spec: FlushSpec, ack: Omit<FlushAck, 'instance'>): Promise<number> {
  return redis.publish(flushAckChannel(keyPrefix, spec.runId), JSON.stringify({ instance: PEER, ...ack }));
}

it('resolves once every instance acked its drain and flush', async () => {
  const spec = flushSpec();
  const request = nextRequest();
  const flushed = requestFlush(redis, spec);
  const { nonce, runId, drainTimeoutMs } = await request;
  expect({ runId, drainTimeoutMs }).toEqual({ runId: spec.runId, drainTimeoutMs: spec.drainTimeoutMs });
  await ack(spec, { nonce, drained: true, flushed: true });
  await expect(flushed).resolves.toBeUndefined();
});

it('fails at once, naming the instance, when it acks orders still in flight', async () => {
  const spec = flushSpec();
  const request = nextRequest();
  const flushed = requestFlush(redis, spec);
  await ack(spec, { nonce: (await request).nonce, drained: false, flushed: true });
  await expect(flushed).rejects.toThrow(`instance ${PEER} still had orders in flight 50 ms after the load stopped`);
});

it('ignores malformed acks and still settles on the valid one', async () => {
  const spec = flushSpec();
  const request = nextRequest();
  const flushed = requestFlush(redis, spec);
  const { nonce } = await request;
  for (const malformed of ['not json{', 'null', '[]', '{"nonce": 7}']) await redis.publish(flushAckChannel(keyPrefix, spec.runId), malformed);
  await ack(spec, { nonce, drained: true, flushed: true });
  await expect(flushed).resolves.toBeUndefined();
});

// The pitfall lab's flake: a crash fault passed during the drain killed the instance after the worker
// had read the crashes; the wait ran out and failed the run for a death the fault itself caused.
it('stops waiting for an instance that announces its crash while the flush waits, and never acks', async () => {
  const spec = flushSpec({ ackTimeoutMs: 5_000 });
  const request = nextRequest();
  const flushed = requestFlush(redis, spec);
  await request;
  await announceCrash(redis, { keyPrefix, runId: spec.runId, instanceId: PEER });
  await expect(flushed).resolves.toBeUndefined();
});

it('does not wait for an instance whose crash was recorded before the flush listened', async () => {
  const spec = flushSpec({ ackTimeoutMs: 5_000, recordedCrashes: async () => [PEER] });
  await expect(requestFlush(redis, spec)).resolves.toBeUndefined();
});

it('still fails, naming it, when another instance of the run crashed but this one never answers', async () => {
  const spec = flushSpec({ instances: [PEER, 'crashed-instance'], ackTimeoutMs: 300 });
  const request = nextRequest();
  const flushed = requestFlush(redis, spec);
  await request;
  await announceCrash(redis, { keyPrefix, runId: spec.runId, instanceId: 'crashed-instance' });
  await expect(flushed).rejects.toThrow(`instance ${PEER} did not report its figures within 300 ms`);
});

// Not a defect before the fix either: the wait was awaited, so its timeout failed the run as it should.
it('fails after the ack timeout, naming the instance, when no ack ever comes', async () => {
  await expect(requestFlush(redis, flushSpec({ ackTimeoutMs: 200 }))).rejects.toThrow(`instance ${PEER} did not report its figures within 200 ms`);
});

it('rejects at once when the request cannot be sent, and leaves no timer behind to reject later', async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    // A closed connection: PUBLISH fails, while the ack subscriber, a fresh duplicate, connects and subscribes.
    const closed = new Redis(testRedisOptions());
    await closed.quit();
    await expect(requestFlush(closed, flushSpec({ ackTimeoutMs: 200 }))).rejects.toThrow(/Connection is closed/);
    // Waits out the ack timeout: a wait nobody awaits any more would reject now.
    await sleep(600);
  } finally {
    process.off('unhandledRejection', record);
  }
  expect(unhandled).toEqual([]);
});

describe('gone: the instances the registry saw stop', () => {
  it('ends the wait at once, naming the instance, when one that still owes its answer stopped', async () => {
    const spec = flushSpec({ gone: async () => [{ instance: PEER, description: `${PEER} (port 1, pid 2)` }] });
    const request = nextRequest();
    const flushed = requestFlush(redis, spec);
    await request;
    await expect(flushed).rejects.toThrow(`instance ${PEER} (port 1, pid 2) stopped as the load ended, before it reported its figures`);
  });

  it('ignores an instance that stopped after it answered: the figures it owed are in', async () => {
    const other = 'other-instance';
    // The peer answers at once and is seen gone at every poll (a clean shutdown removes its beat); the
    // other answers after two polls, the first of which comes GONE_POLL_MS after the request.
    let polls = 0;
    let polledTwice: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (polledTwice = resolve));
    const gone = async () => {
      if (++polls === 2) polledTwice();
      return [{ instance: PEER, description: PEER }];
    };
    const spec = flushSpec({ instances: [PEER, other], gone });
    const request = nextRequest();
    const flushed = requestFlush(redis, spec);
    const { nonce } = await request;
    await ack(spec, { nonce, drained: true, flushed: true });
    // A flush that fails on a poll fails here, naming the instance.
    await Promise.race([twice, flushed]);
    await redis.publish(flushAckChannel(keyPrefix, spec.runId), JSON.stringify({ instance: other, nonce, drained: true, flushed: true }));
    await expect(flushed).resolves.toBeUndefined();
  });
});
