import { OrderWriteProcessor, OrderWriteQueue } from '@oversell/stock';
import { freshProductId } from '@oversell/stock/testing';
import { OrderQueueWatch } from '@oversell/lab';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * A queued run's books wait for the order-write queue: the service here starts with no order writer
 * (ORDER_WRITER=false), so its queued orders stay queued until the test starts one.
 */
let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService({ ORDER_WRITER: 'false' });
});

afterAll(async () => {
  await service?.close();
});

const metric = async (name: string) => Number((await service.app.inject({ method: 'GET', url: '/metrics' })).payload.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1]);

it('reports orders still queued when the bound passes, and none once a writer drained them; /metrics shows the backlog', async () => {
  const productId = freshProductId();
  await service.post(`/api/products/${productId}/reset`, { stock: 10, strategy: 'lua-decrement', orderWrite: 'queued' });
  for (let i = 0; i < 3; i++) expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' })).status).toBe(202);
  const watch = new OrderQueueWatch(service.app.get(OrderWriteQueue), Math.floor(Date.now() / 1000));

  expect(await metric('oversell_order_write_queue_depth')).toBe(3);
  expect(await metric('oversell_order_write_lag_seconds')).toBeGreaterThan(0);
  const bounded = await watch.drain(300);
  expect(bounded).toMatchObject({ stillQueued: 3, peakDepth: 3, failed: 0 });
  expect(bounded.drainMs).toBeGreaterThanOrEqual(300);

  service.app.get(OrderWriteProcessor).start();
  const drained = await watch.drain(30_000);

  expect(drained).toMatchObject({ stillQueued: 0, peakDepth: 3, failed: 0 });
  expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ sold: 3, orders: 3, remaining: 7, lost: 0, storesAgree: true });
  expect(await metric('oversell_order_write_queue_depth')).toBe(0);
});
