import type { RunView } from '@oversell/contracts';
import { freshProductId, testRedisOptions } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { flushAckChannel, flushRequestsChannel, instancesKey, runEventsChannel, type FlushRequest, type InstanceBeat } from '@oversell/lab';
import { startServiceProcess, type ServiceProcess } from './service-process';

/**
 * No crash path: the service runs as main.ts starts it, in a process of its own (the run worker too),
 * and must still be there, answering /health and taking orders, after a malformed message on each
 * channel it listens to and after a promise rejection nothing handled.
 */
const MALFORMED = ['not json{', 'null', '[]', '{}', '{"runId": 7}'];
const FAKE_PEER = 'fake-peer';
let service: ServiceProcess;
let redis: Redis;
let listener: Redis;

beforeAll(() => {
  redis = new Redis(testRedisOptions());
  listener = new Redis(testRedisOptions());
});

// A test that crashed the process leaves the next one a fresh process.
beforeEach(async () => {
  if (!service?.alive) service = await startServiceProcess({ env: { RUN_WORKER: 'true', LOCK_WAIT_TIMEOUT_MS: '1000' }, preload: [resolve(__dirname, 'fixtures', 'reject-on-message.ts')] });
});

afterAll(async () => {
  await service?.stop();
  await Promise.all([redis?.quit(), listener?.quit()]);
});

/** The next message on a channel, as the test's own subscriber hears it. */
async function nextMessage(channel: string, accept: (message: string) => boolean = () => true): Promise<string> {
  await listener.subscribe(channel);
  try {
    return await new Promise<string>((resolveMessage) => {
      const onMessage = (from: string, message: string) => {
        if (from !== channel || !accept(message)) return;
        listener.off('message', onMessage);
        resolveMessage(message);
      };
      listener.on('message', onMessage);
    });
  } finally {
    await listener.unsubscribe(channel);
  }
}

async function expectStillServing(): Promise<void> {
  expect(service.alive).toBe(true);
  expect((await service.request('/health')).status).toBe(200);
  const productId = freshProductId();
  expect((await service.request(`/api/products/${productId}/reset`, { method: 'POST', body: { stock: 5, strategy: 'lua-decrement' } })).status).toBe(200);
  expect((await service.request('/api/orders', { method: 'POST', body: { productId, quantity: 1, strategy: 'lua-decrement' } })).status).toBe(201);
}

function logged(pattern: RegExp): boolean {
  return service.output.some((line) => pattern.test(line));
}

/**
 * A run on the service's worker, held in its flush: a second, fake instance beats in the registry
 * (its URL is the service's own, so the load has somewhere to go) and acks only when told.
 */
async function runHeldInFlush(): Promise<{ runId: string; nonce: string; ack(): Promise<void>; finished(): Promise<RunView> }> {
  const beat = () => redis.hset(instancesKey(service.keyPrefix), FAKE_PEER, JSON.stringify({ instance: FAKE_PEER, url: service.url, port: 1, pid: process.pid, rssBytes: 0, at: Date.now() } satisfies InstanceBeat));
  await beat();
  const beating = setInterval(() => void beat(), 500);
  try {
    let runId = '';
    const request = nextMessage(flushRequestsChannel(service.keyPrefix), (message) => (JSON.parse(message) as FlushRequest).runId === runId);
    const created = await service.request('/api/runs', { method: 'POST', body: { strategy: 'noop', initialStock: 0, load: { connections: 1, totalRequests: 3 } } });
    expect(created.status).toBe(201);
    runId = created.body.id;
    const { nonce } = JSON.parse(await request) as FlushRequest;
    return {
      runId,
      nonce,
      async ack() {
        clearInterval(beating);
        await redis.publish(flushAckChannel(service.keyPrefix, runId), JSON.stringify({ instance: FAKE_PEER, nonce, drained: true, flushed: true }));
      },
      async finished() {
        for (;;) {
          const { body } = await service.request(`/api/runs/${runId}`);
          if (body.status === 'completed' || body.status === 'failed') return body as RunView;
          await sleep(100);
        }
      },
    };
  } catch (error) {
    clearInterval(beating);
    throw error;
  }
}

/** A run's event stream as a browser reads it: the text so far, and a wait for what it should contain. */
async function openEventStream(runId: string): Promise<{ until(pattern: RegExp): Promise<string>; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${service.url}/api/runs/${runId}/events`, { signal: abort.signal });
  expect(response.status).toBe(200);
  let text = '';
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      for (const wake of waiters) wake();
    }
  })().catch(() => undefined);
  return {
    until: (pattern) =>
      new Promise((resolveText) => {
        const check = () => {
          if (!pattern.test(text)) return;
          waiters.delete(check);
          resolveText(text);
        };
        waiters.add(check);
        check();
      }),
    close: () => abort.abort(),
  };
}

it('ignores malformed flush requests (logged), then answers a valid one, /health and an order', async () => {
  const channel = flushRequestsChannel(service.keyPrefix);
  for (const message of MALFORMED) expect(await redis.publish(channel, message)).toBe(1);
  // Answered after the malformed ones (one connection, in order): the process outlived them.
  const ack = nextMessage(flushAckChannel(service.keyPrefix, 'probe-run'));
  await redis.publish(channel, JSON.stringify({ runId: 'probe-run', nonce: 'probe', drainTimeoutMs: 100 } satisfies FlushRequest));
  expect(JSON.parse(await ack)).toEqual({ instance: service.instanceId, nonce: 'probe', drained: true, flushed: true });
  await expectStillServing();
  expect(logged(/ignored a message on \S+:run-figures:flush that is not JSON/)).toBe(true);
  expect(logged(/ignored a malformed message on \S+:run-figures:flush/)).toBe(true);
});

it('ignores malformed events on an open run stream (logged); the stream goes on to the result', async () => {
  const run = await runHeldInFlush();
  const stream = await openEventStream(run.runId);
  try {
    await stream.until(/event: status/);
    for (const message of MALFORMED) await redis.publish(runEventsChannel(service.keyPrefix, run.runId), message);
    await expectStillServing();
    await run.ack();
    const text = await stream.until(/event: result/);
    expect(text).toMatch(/"status":"completed"/);
    expect(logged(/ignored a malformed message on \S+:events/)).toBe(true);
  } finally {
    stream.close();
  }
  expect((await run.finished()).status).toBe('completed');
});

it('ignores malformed flush acks during a run (logged); the run completes on the valid ack', async () => {
  const run = await runHeldInFlush();
  for (const message of MALFORMED) expect(await redis.publish(flushAckChannel(service.keyPrefix, run.runId), message)).toBe(1);
  await expectStillServing();
  await run.ack();
  expect((await run.finished()).status).toBe('completed');
  expect(logged(/ignored a malformed message on \S+:flush-acks/)).toBe(true);
});

it('logs a promise rejection nothing handled, with its stack, and keeps serving', async () => {
  service.send('reject');
  const logLine = /BUG: a promise rejected and nothing handled it.*a rejection nothing handles \(reject-on-message\)/;
  while (service.alive && !logged(logLine)) await sleep(50);
  await expectStillServing();
  const line = service.output.find((l) => logLine.test(l))!;
  expect(line).toMatch(/"level":50/);
  expect(line).toMatch(/"stack":"Error: a rejection nothing handles \(reject-on-message\)\\n +at .*reject-on-message\.ts:\d+/);
});
