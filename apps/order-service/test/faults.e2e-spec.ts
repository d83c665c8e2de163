import { CuttableProxy, freshProductId, testMysqlSettings, testRedisOptions } from '@oversell/stock/testing';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * Outages of Redis and MySQL, made real by cutting a TCP proxy in front of each: the service must
 * answer 503 store_unavailable, lose no order and corrupt no stock, and recover when the store returns.
 */
const mysqlProxy = new CuttableProxy(testMysqlSettings().host, testMysqlSettings().port);
const redisProxy = new CuttableProxy(testRedisOptions().host!, testRedisOptions().port!);
let service: ServiceUnderTest;
let productId: number;
const STOCK = 10;
const order = () => ({ productId, quantity: 1, strategy: 'lua-decrement' });

beforeAll(async () => {
  await mysqlProxy.start();
  await redisProxy.start();
  service = await startService({ MYSQL_PORT: String(mysqlProxy.port), REDIS_PORT: String(redisProxy.port) });
});

afterAll(async () => {
  await service?.close();
  await Promise.all([mysqlProxy.stop(), redisProxy.stop()]);
});

beforeEach(async () => {
  productId = freshProductId();
  expect((await service.post(`/api/products/${productId}/reset`, { stock: STOCK, strategy: 'lua-decrement' })).status).toBe(200);
  expect((await service.post('/api/orders', order())).status).toBe(201);
});

it('MySQL down: orders answer 503 store_unavailable and the units they took go back to Redis', async () => {
  await mysqlProxy.cut();
  try {
    for (let i = 0; i < 3; i++) {
      const response = await service.post('/api/orders', order());
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ error: 'store_unavailable' });
      expect(response.body.message).toMatch(/mysql/);
    }
  } finally {
    await mysqlProxy.restore();
  }
  const after = await service.post('/api/orders', order());
  expect(after.status).toBe(201);
  const inventory = await service.get(`/api/products/${productId}/inventory`);
  expect(inventory.body).toMatchObject({ remaining: STOCK - 2, sold: 2, orders: 2, storesAgree: true });
});

it('Redis down: orders answer 503 store_unavailable, nothing is recorded, and orders resume when it returns', async () => {
  await redisProxy.cut();
  try {
    const response = await service.post('/api/orders', order());
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ error: 'store_unavailable' });
    const health = await service.get('/health');
    expect(health.status).toBe(503);
    expect(health.body.error).toHaveProperty('redis');
  } finally {
    await redisProxy.restore();
  }
  let resumed = await service.post('/api/orders', order());
  // ioredis reconnects with backoff; the first order after the return may still find it reconnecting.
  for (let attempt = 0; resumed.status === 503 && attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    resumed = await service.post('/api/orders', order());
  }
  expect(resumed.status).toBe(201);
  const inventory = await service.get(`/api/products/${productId}/inventory`);
  expect(inventory.body).toMatchObject({ remaining: STOCK - 2, sold: 2, orders: 2, storesAgree: true });
});
