import { STRATEGY_NAMES } from '@oversell/contracts';
import { describeBadRequests } from '@oversell/contracts/testing';
import { RedisConnections, StockKeys } from '@oversell/stock';
import { freshProductId, until } from '@oversell/stock/testing';
import { startService, type ServiceUnderTest } from './service-under-test';

let service: ServiceUnderTest;
let productId: number;
const STOCK = 10;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.close();
});

beforeEach(async () => {
  productId = freshProductId();
  const reset = await service.post(`/api/products/${productId}/reset`, { stock: STOCK, strategy: 'lua-decrement' });
  expect(reset.status).toBe(200);
});

// The same table runs through the gateway in apps/launcher (bad-requests.int-spec.ts).
describe('bad requests', () => {
  describeBadRequests(() => service.send);
});

describe('POST /api/orders', () => {
  it('sells a unit: 201 with the order, stock down by one, one order recorded', async () => {
    const { status, body } = await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' });
    expect(status).toBe(201);
    expect(body).toMatchObject({ productId, quantity: 1, strategy: 'lua-decrement', replayed: false });
    const inventory = await service.get(`/api/products/${productId}/inventory`);
    expect(inventory.body).toMatchObject({ remaining: STOCK - 1, sold: 1, orders: 1, storesAgree: true });
  });

  it("answers 202 with the queued order under orderWrite 'queued'; a writer writes its row afterwards", async () => {
    await service.post(`/api/products/${productId}/reset`, { stock: STOCK, strategy: 'lua-decrement', orderWrite: 'queued' });
    const { status, body } = await service.post('/api/orders', { productId, quantity: 2, strategy: 'lua-decrement' });
    expect(status).toBe(202);
    expect(body).toMatchObject({ id: null, queued: true, requestId: expect.any(String), productId, quantity: 2, replayed: false });
    const inventory = () => service.get(`/api/products/${productId}/inventory`);
    await until(async () => (await inventory()).body.orders === 1, 'the queued order is written');
    expect((await inventory()).body).toMatchObject({ remaining: STOCK - 2, sold: 2, orders: 1, lost: 0, storesAgree: true });
  });

  it('answers 409 sold_out once the stock is gone, and never sells more', async () => {
    const statuses = [];
    for (let i = 0; i < STOCK + 3; i++) statuses.push((await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' })).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(STOCK);
    const last = await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' });
    expect(last).toMatchObject({ status: 409, body: { error: 'sold_out' } });
    const inventory = await service.get(`/api/products/${productId}/inventory`);
    expect(inventory.body).toMatchObject({ remaining: 0, sold: STOCK, oversold: 0, storesAgree: true });
  });

  it('replays an order with the same idempotency key (200, same id) and takes the stock once', async () => {
    const order = { productId, quantity: 2, strategy: 'lua-decrement', idempotencyKey: `key-${productId}` };
    const first = await service.post('/api/orders', order);
    const second = await service.post('/api/orders', order);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, replayed: true });
    const inventory = await service.get(`/api/products/${productId}/inventory`);
    expect(inventory.body).toMatchObject({ remaining: STOCK - 2, sold: 2, orders: 1 });
  });

  it('refuses an idempotency key reused for a different order with 409, and takes nothing more', async () => {
    const key = `reuse-${productId}`;
    expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement', idempotencyKey: key })).status).toBe(201);
    const reused = await service.post('/api/orders', { productId, quantity: 3, strategy: 'lua-decrement', idempotencyKey: key });
    expect(reused).toMatchObject({ status: 409, body: { error: 'idempotency_key_reused', field: 'idempotencyKey' } });
    const inventory = await service.get(`/api/products/${productId}/inventory`);
    expect(inventory.body).toMatchObject({ remaining: STOCK - 1, sold: 1, orders: 1, storesAgree: true });
  });

  const valid = () => ({ productId, quantity: 1, strategy: 'lua-decrement' });

  it('lists the valid strategies when the name is unknown', async () => {
    const { body } = await service.post('/api/orders', { ...valid(), strategy: 'nope' });
    for (const name of STRATEGY_NAMES) expect(body.message).toContain(name);
  });

  it('takes idempotencyKey: null as no key, as an order\'s own view writes it', async () => {
    const { status, body } = await service.post('/api/orders', { ...valid(), idempotencyKey: null });
    expect(status).toBe(201);
    expect(body).toMatchObject({ productId, idempotencyKey: null, replayed: false });
  });

  it('names the first 20 of many unknown fields and counts the rest: the answer stays small', async () => {
    const unknown = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, 0]));
    const { status, body } = await service.post('/api/orders', { ...valid(), quantity: 0, ...unknown });
    expect(status).toBe(400);
    expect(body.details.map((d: { field: string }) => d.field)).toEqual([...Array.from({ length: 20 }, (_, i) => `k${i}`), 'quantity']);
    expect(body.message).toMatch(/property k19 should not exist; and 480 more unknown fields; quantity must not be less than 1$/);
  });

  it('names every field at fault, unknown fields first, each with its problems, and takes nothing', async () => {
    const { status, body } = await service.post('/api/orders', { quantity: 0, productId: '7', strategy: 'lua-decrement', idempotencyKey: 'a b', price: 0, coupon: 'x' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'validation_failed', field: 'price' });
    expect(body.details).toEqual([
      { field: 'price', problems: ['property price should not exist'] },
      { field: 'coupon', problems: ['property coupon should not exist'] },
      { field: 'productId', problems: ['productId must be an integer number'] },
      { field: 'quantity', problems: ['quantity must not be less than 1'] },
      { field: 'idempotencyKey', problems: ['idempotencyKey must be printable ASCII without spaces'] },
    ]);
    expect(body.message).toBe(body.details.flatMap((d: { problems: string[] }) => d.problems).join('; '));
    expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ remaining: STOCK, sold: 0, orders: 0 });
  });

  it('answers 404 product_not_found for a product never reset', async () => {
    const { status, body } = await service.post('/api/orders', { ...valid(), productId: freshProductId() });
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: 'product_not_found', field: 'productId' });
  });

  it('answers 503 stock_store_lost once Redis has lost the seeded run\'s keys, takes nothing, and the inventory says so', async () => {
    expect((await service.post('/api/orders', valid())).status).toBe(201);
    // What a Redis restart without persistence leaves of the product: none of its keys.
    const redis = service.app.get(RedisConnections).commands;
    await redis.del(...(await redis.keys(new StockKeys(service.keyPrefix, productId).pattern())));
    const { status, body } = await service.post('/api/orders', valid());
    expect(status).toBe(503);
    expect(body).toMatchObject({ error: 'stock_store_lost' });
    const inventory = await service.get(`/api/products/${productId}/inventory`);
    expect(inventory.body).toMatchObject({ remaining: 0, sold: 1, orders: 1, storesAgree: false, storeLost: true });
  });
});

describe('POST /api/products/:id/reset', () => {
  it('starts a fresh run: a new run id, full stock, earlier orders no longer counted', async () => {
    await service.post('/api/orders', { productId, quantity: 3, strategy: 'lua-decrement' });
    const before = await service.get(`/api/products/${productId}/inventory`);
    const reset = await service.post(`/api/products/${productId}/reset`, { stock: 4, strategy: 'db-optimistic' });
    expect(reset.body.runId).not.toBe(before.body.runId);
    const after = await service.get(`/api/products/${productId}/inventory`);
    expect(after.body).toMatchObject({ strategy: 'db-optimistic', initialStock: 4, remaining: 4, sold: 0, storesAgree: true });
  });
});

describe('POST /api/products/:id/break-locks', () => {
  let lock: string;
  const redis = () => service.app.get(RedisConnections).commands;

  beforeEach(async () => {
    const reset = await service.post(`/api/products/${productId}/reset`, { stock: STOCK, strategy: 'setnx-no-ttl' });
    lock = StockKeys.of(service.keyPrefix, reset.body).lock;
    // A holder that died inside: the lock is held, with no expiry, and no one will release it.
    await redis().set(lock, '1');
  });

  it('answers 404 product_not_found for a product never reset', async () => {
    const { status, body } = await service.post(`/api/products/${freshProductId()}/break-locks`, {});
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: 'product_not_found', field: 'productId' });
  });

  it('deletes the held lock of the current run (broken: 1), after which orders sell again', async () => {
    const runId = (await service.get(`/api/products/${productId}/inventory`)).body.runId;
    // No body, as an operator's bare POST sends it.
    const response = await service.app.inject({ method: 'POST', url: `/api/products/${productId}/break-locks` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ productId, runId, strategy: 'setnx-no-ttl', broken: 1 });
    expect(await redis().exists(lock)).toBe(0);
    expect((await service.post(`/api/products/${productId}/break-locks`, {})).body.broken).toBe(0);
    expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'setnx-no-ttl' })).status).toBe(201);
  });

  it.each([
    ['a field', { runId: 'someone-elses-run' }, 'runId'],
    ['an array', [1], undefined],
  ])('refuses a body with %s (400, naming the field) and leaves the lock held', async (_case, body, field) => {
    const { status, body: answer } = await service.post(`/api/products/${productId}/break-locks`, body);
    expect(status).toBe(400);
    expect(answer).toMatchObject({ error: 'validation_failed', ...(field ? { field } : {}) });
    expect(await redis().get(lock)).toBe('1');
  });
});

describe('POST /api/runs and /api/runs/batch need a load', () => {
  const run = { strategy: 'lua-decrement', initialStock: 10 };
  // The newest run, not a count: a count capped by the list's limit could not show one more.
  const newestRun = async () => (await service.get('/api/runs?limit=1')).body[0]?.id;

  async function expectRefusedNamingLoad(url: string, body: unknown): Promise<void> {
    const before = await newestRun();
    const response = await service.post(url, body);
    expect(response).toMatchObject({ status: 400, body: { error: 'validation_failed', field: 'load' } });
    expect(response.body.message).toMatch(/load/);
    expect(await newestRun()).toBe(before);
  }

  it('refuses a run without load', () => expectRefusedNamingLoad('/api/runs', run));
  it('refuses a run with load: []', () => expectRefusedNamingLoad('/api/runs', { ...run, load: [] }));
  it('refuses a run with load: null', () => expectRefusedNamingLoad('/api/runs', { ...run, load: null }));
  it('refuses a batch without load', () => expectRefusedNamingLoad('/api/runs/batch', { initialStock: 10 }));
  it('refuses a batch with load: []', () => expectRefusedNamingLoad('/api/runs/batch', { initialStock: 10, load: [] }));
});

describe('service surface', () => {
  it('describes every strategy with its guarantee and pitfall', async () => {
    const { status, body } = await service.get('/api/strategies');
    expect(status).toBe(200);
    expect(body.map((s: { name: string }) => s.name)).toEqual([...STRATEGY_NAMES]);
    for (const strategy of body) {
      expect(strategy.guarantee.length).toBeGreaterThan(20);
      expect(strategy.pitfall.length).toBeGreaterThan(20);
    }
    const luaSources = body.flatMap((s: { scripts: { language: string; source: string }[] }) => s.scripts).filter((s: { language: string }) => s.language === 'lua');
    expect(luaSources.every((s: { source: string }) => s.source.includes('redis.call'))).toBe(true);
  });

  it('reports health of MySQL and Redis', async () => {
    const { status, body } = await service.get('/health');
    expect(status).toBe(200);
    expect(body.info).toMatchObject({ mysql: { status: 'up' }, redis: { status: 'up' } });
  });

  it('serves the OpenAPI document with the order route', async () => {
    const { status } = await service.get('/api/docs');
    expect(status).toBe(200);
    const json = await service.get('/api/docs-json');
    expect(Object.keys(json.body.paths)).toEqual(expect.arrayContaining(['/api/orders', '/api/products/{id}/reset', '/api/products/{id}/inventory', '/api/products/{id}/break-locks', '/api/runs']));
    // The hot routes are Fastify's, not controllers: their entries are written beside Nest's.
    expect(json.body.paths['/api/orders'].post).toMatchObject({ operationId: 'placeOrder', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateOrderRequest' } } } } });
    expect(json.body.paths['/api/noop'].post).toMatchObject({ operationId: 'noop' });
    expect(Object.keys(json.body.components.schemas.CreateOrderRequest.properties)).toEqual(['productId', 'quantity', 'strategy', 'idempotencyKey']);
  });

  it('exposes Prometheus metrics with order outcomes', async () => {
    await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' });
    const response = await service.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.payload).toMatch(/oversell_orders_total\{strategy="lua-decrement",outcome="sold"\} [1-9]/);
  });

  it('answers an unknown route with a JSON 404', async () => {
    expect(await service.get('/api/nothing-here')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });
});
