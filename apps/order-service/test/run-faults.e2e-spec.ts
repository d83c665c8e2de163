import type { FaultEvent, RunBatchView, RunView } from '@oversell/contracts';
import { RedisConnections } from '@oversell/stock';
import { freshProductId, until } from '@oversell/stock/testing';
import { instancesKey, RunFigureKeys } from '@oversell/lab';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * Faults through the API of one instance: what the instances cannot do is refused before anything is
 * queued, a reset resolves the instance a fault names, and an order passing the named point gets the
 * fault for real, recorded with its instance and times.
 */
let service: ServiceUnderTest;
const LOAD = { connections: 1, totalRequests: 1 };

beforeAll(async () => {
  service = await startService();
  // The instance's first heartbeat: faults name instances among the live ones.
  const redis = service.app.get(RedisConnections).commands;
  await until(async () => (await redis.hexists(instancesKey(service.keyPrefix), process.env.INSTANCE_ID!)) === 1, 'the instance beats');
});

afterAll(async () => {
  await service?.close();
});

const newestRunId = async () => ((await service.get('/api/runs?limit=1')).body as RunView[])[0]?.id;

it('refuses a store-cut when the instance was started without the store proxy, naming the fault, and queues nothing', async () => {
  const before = await newestRunId();
  const response = await service.post('/api/runs', { strategy: 'watchdog', initialStock: 10, load: LOAD, faults: [{ kind: 'store-cut', at: 'lock-acquired', durationMs: 500 }] });
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ error: 'validation_failed', field: 'faults[0].kind' });
  expect(response.body.message).toMatch(/store proxy/);
  expect(await newestRunId()).toBe(before);
});

it('refuses a crash with one live instance: the instance running the run is never crashed, so a crash needs 2; nothing queued', async () => {
  const before = await newestRunId();
  const response = await service.post('/api/runs', { strategy: 'setnx-expire', initialStock: 10, load: LOAD, faults: [{ kind: 'crash', at: 'lock-acquired' }] });
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ error: 'validation_failed', field: 'faults[0].kind' });
  expect(response.body.message).toMatch(/the instance running the run is never crashed; start at least 2/);
  expect(await newestRunId()).toBe(before);
});

it('a reset resolves the instance a fault names, and an order passing the point is paused for real, the pause recorded with its instance and order', async () => {
  const productId = freshProductId();
  const reset = await service.post(`/api/products/${productId}/reset`, { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'pause', at: 'lock-acquired', durationMs: 300, instance: 0 }] });
  expect(reset.status).toBe(200);
  expect(reset.body.faults).toEqual([{ kind: 'pause', at: 'lock-acquired', durationMs: 300, instance: 0, instanceId: process.env.INSTANCE_ID }]);
  const sentAt = Date.now();
  expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'uuid-lua' })).status).toBe(201);
  const answeredAt = Date.now();
  const redis = service.app.get(RedisConnections).commands;
  const events = (await redis.lrange(new RunFigureKeys(service.keyPrefix, reset.body.runId).faultEvents, 0, -1)).map((json) => JSON.parse(json) as FaultEvent);
  expect(events).toEqual([{ kind: 'pause', at: 'lock-acquired', instance: process.env.INSTANCE_ID, requestId: expect.any(String), startedAt: expect.any(Number), endedAt: expect.any(Number) }]);
  const [pause] = events;
  expect(pause.endedAt! - pause.startedAt).toBeGreaterThanOrEqual(300 - 1);
  expect(pause.startedAt).toBeGreaterThanOrEqual(sentAt);
  expect(pause.endedAt!).toBeLessThanOrEqual(answeredAt);
  // Once by default: the next order goes through without a pause.
  expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'uuid-lua' })).status).toBe(201);
  expect(await redis.llen(new RunFigureKeys(service.keyPrefix, reset.body.runId).faultEvents)).toBe(1);
});

it('a batch carries its faults into the strategies\' runs, not into the warm-up and the no-op ceiling', async () => {
  const faults = [{ kind: 'pause', at: 'stock-read', durationMs: 50, every: 2 }];
  const response = await service.post('/api/runs/batch', { initialStock: 10, load: LOAD, strategies: ['uuid-lua', 'watchdog'], faults });
  expect(response.status).toBe(201);
  const runs = await Promise.all((response.body as RunBatchView).runs.map(async (run) => (await service.get(`/api/runs/${run.id}`)).body as RunView));
  expect(runs.map((run) => [run.params.strategy, run.params.faults ?? null])).toEqual([
    ['noop', null],
    ['noop', null],
    ['uuid-lua', faults],
    ['watchdog', faults],
  ]);
});
