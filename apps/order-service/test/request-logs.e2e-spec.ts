import { RUN_TOKEN_HEADER } from '@oversell/contracts';
import { StockKeys } from '@oversell/stock';
import { freshProductId, testRedisOptions, until } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { startServiceProcess, type ServiceProcess } from './service-process';

/**
 * An error logged while serving a request names that request (id, method, url) and nothing else of
 * it: its headers carry the admin token (Authorization) and the run token, and logs are read by more
 * people than hold either.
 */
let service: ServiceProcess;

beforeAll(async () => {
  service = await startServiceProcess();
});

afterAll(async () => {
  await service?.stop();
});

it('a 5xx logged while serving an order names the request, never its Authorization or run-token header', async () => {
  const productId = freshProductId();
  expect((await service.request(`/api/products/${productId}/reset`, { method: 'POST', body: { stock: 5, strategy: 'lua-decrement' } })).status).toBe(200);
  // What a Redis restart without persistence leaves: a 503 stock_store_lost, which the error filter logs.
  const redis = new Redis(testRedisOptions());
  try {
    await redis.del(...(await redis.keys(new StockKeys(service.keyPrefix, productId).pattern())));
  } finally {
    redis.disconnect();
  }
  const response = await fetch(`${service.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer admin-secret-in-a-header', [RUN_TOKEN_HEADER]: 'run-secret-in-a-header' },
    body: JSON.stringify({ productId, quantity: 1, strategy: 'lua-decrement' }),
  });
  expect(response.status).toBe(503);

  // The line travels through the process's stdout pipe; the answer can arrive first.
  const errorLines = (): string[] => service.output.filter((line) => line.includes('lost its keys'));
  await until(async () => errorLines().length > 0, 'the error is logged');
  const logged = errorLines().map((line) => JSON.parse(line));
  expect(logged).toHaveLength(1);
  expect(logged[0].req).toEqual({ id: expect.anything(), method: 'POST', url: '/api/orders' });
  expect(service.output.join('\n')).not.toMatch(/admin-secret-in-a-header|run-secret-in-a-header/);
});
