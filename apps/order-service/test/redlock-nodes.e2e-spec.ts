import { RedisNodeGroup } from '@oversell/locks/testing';
import { freshProductId } from '@oversell/stock/testing';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * The redlock strategy through the HTTP API on five nodes of this file's own (the run's shared nodes are
 * never faulted): a minority down still sells, a majority down is a clear 503 lock_unavailable.
 */
let group: RedisNodeGroup;
let service: ServiceUnderTest;

beforeAll(async () => {
  group = RedisNodeGroup.start();
  // A short lock wait: with no majority to be had, the lock keeps trying until the wait runs out.
  service = await startService({ REDLOCK_NODES: group.addresses.join(','), LOCK_WAIT_TIMEOUT_MS: '1000' });
});

afterAll(async () => {
  await service?.close();
  group?.stop();
});

it('2 of 5 nodes down: 201; 3 of 5 down: 503 lock_unavailable naming the majority it lacks, and nothing is taken', async () => {
  const productId = freshProductId();
  const order = { productId, quantity: 1, strategy: 'redlock' };
  expect((await service.post(`/api/products/${productId}/reset`, { stock: 5, strategy: 'redlock' })).status).toBe(200);

  group.stopNode(0);
  group.stopNode(1);
  expect((await service.post('/api/orders', order)).status).toBe(201);

  group.stopNode(2);
  const refused = await service.post('/api/orders', order);
  expect(refused).toMatchObject({ status: 503, body: { error: 'lock_unavailable', message: expect.stringMatching(/^five Redis nodes for RedLock: .*2 of its nodes answered, a majority of 3 is needed/) } });
  expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ sold: 1, remaining: 4, orders: 1, oversold: 0, storesAgree: true });
});
