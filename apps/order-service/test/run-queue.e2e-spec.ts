import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { RUNS_QUEUE } from '@oversell/lab';
import { startService, type ServiceUnderTest } from './service-under-test';

/** The run queue holds at most RUN_QUEUE_LIMIT waiting runs; no worker runs them here, so they stay waiting. */
const LIMIT = 3;
const RUN = { strategy: 'noop', initialStock: 0, load: { connections: 1, totalRequests: 1 } };
const BATCH = { initialStock: 1, includeCeiling: false, load: { connections: 1, totalRequests: 1 } };

let service: ServiceUnderTest;
const waiting = () => service.app.get<Queue>(getQueueToken(RUNS_QUEUE)).getWaitingCount();
const newestRun = async () => (await service.get('/api/runs?limit=1')).body[0]?.id;

beforeAll(async () => {
  service = await startService({ RUN_QUEUE_LIMIT: String(LIMIT) });
});

afterAll(async () => {
  delete process.env.RUN_QUEUE_LIMIT;
  await service?.close();
});

beforeEach(() => service.app.get<Queue>(getQueueToken(RUNS_QUEUE)).drain());

async function expectRefused(path: string, body: unknown, asked: RegExp): Promise<void> {
  const [before, newest] = [await waiting(), await newestRun()];
  const response = await service.post(path, body);
  expect(response).toMatchObject({ status: 429, body: { statusCode: 429, error: 'run_queue_full' } });
  expect(response.body.message).toMatch(/run queue is full/);
  expect(response.body.message).toMatch(asked);
  expect(response.body.message).toMatch(/nothing of this request was queued/);
  expect(await waiting()).toBe(before);
  expect(await newestRun()).toBe(newest);
}

it('queues runs up to the limit, then answers 429 run_queue_full and queues nothing', async () => {
  for (let i = 0; i < LIMIT; i++) expect((await service.post('/api/runs', RUN)).status).toBe(201);
  expect(await waiting()).toBe(LIMIT);
  await expectRefused('/api/runs', RUN, /3 of at most 3 runs are waiting, no room for a run/);
});

it('refuses a whole batch that does not fit, queuing none of it, and takes one that does', async () => {
  expect((await service.post('/api/runs', RUN)).status).toBe(201);
  await expectRefused('/api/runs/batch', { ...BATCH, strategies: ['lua-decrement', 'watchdog', 'db-conditional'] }, /no room for a batch of 3 runs/);
  expect((await service.post('/api/runs/batch', { ...BATCH, strategies: ['lua-decrement', 'watchdog'] })).status).toBe(201);
  expect(await waiting()).toBe(LIMIT);
});

it('admits no more than the limit when posts arrive at once', async () => {
  const statuses = await Promise.all(Array.from({ length: LIMIT + 4 }, () => service.post('/api/runs', RUN).then((r) => r.status)));
  expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
  expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  expect(await waiting()).toBe(LIMIT);
});

it('queues a double-click run whose orders, times their copies, stay within 2000 in flight, however many connections it names', async () => {
  // 10 orders on 1500 connections: 10 buyers, 20 requests in flight (the runner starts no more buyers than orders).
  const run = { strategy: 'lua-decrement', initialStock: 10, load: { connections: 1500, totalRequests: 10 }, faults: [{ kind: 'double-click', copies: 2 }] };
  expect((await service.post('/api/runs', run)).status).toBe(201);
  expect(await waiting()).toBe(1);
});
