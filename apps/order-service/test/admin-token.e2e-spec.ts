import { getQueueToken } from '@nestjs/bullmq';
import { freshProductId } from '@oversell/stock/testing';
import type { Queue } from 'bullmq';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { validateEnv } from '../src/config/validate-env';
import { RUNS_QUEUE } from '@oversell/lab';
import { startService, type ServiceUnderTest } from './service-under-test';

const TOKEN = 'admin-token-for-the-e2e-test-0123';
const LOAD = { connections: 1, totalRequests: 1 };
/** Open to anyone, token or not: the load tools send orders and no-ops without the admin token. */
const OPEN_ROUTES = ['post /api/orders', 'post /api/noop'];

let service: ServiceUnderTest;
let productId: number;

beforeAll(async () => {
  service = await startService({ ADMIN_TOKEN: TOKEN });
});

afterAll(async () => {
  delete process.env.ADMIN_TOKEN;
  await service?.close();
});

beforeEach(async () => {
  productId = freshProductId();
  expect((await service.post(`/api/products/${productId}/reset`, { stock: 5, strategy: 'lua-decrement' }, bearer(TOKEN))).status).toBe(200);
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const send = (action: { method: 'POST' | 'PUT'; path: string; body: unknown }, headers: Record<string, string>) =>
  service.send({ method: action.method, path: action.path, body: JSON.stringify(action.body), headers: { 'content-type': 'application/json', ...headers } });
const queued = () => service.app.get<Queue>(getQueueToken(RUNS_QUEUE)).getWaitingCount();

/** Every state-changing route the service declares (its OpenAPI document), with a valid body for each. */
async function adminActions(): Promise<{ route: string; method: 'POST' | 'PUT'; path: string; body: unknown }[]> {
  const document = (await service.get('/api/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
  const bodies: Record<string, unknown> = {
    '/api/products/{id}/reset': { stock: 9, strategy: 'no-lock' },
    '/api/products/{id}/break-locks': {},
    '/api/runs': { strategy: 'noop', initialStock: 0, load: LOAD },
    '/api/runs/batch': { initialStock: 1, strategies: ['lua-decrement'], load: LOAD },
    '/api/course': { lessonId: 'owner-token' },
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => method !== 'get' && !OPEN_ROUTES.includes(`${method} ${path}`))
      .map((method) => {
        // A new admin route must be added here with a valid body, or this test fails naming it.
        if (!['post', 'put'].includes(method) || !(path in bodies)) throw new Error(`no test body for ${method} ${path}: add it to adminActions`);
        return { route: `${method} ${path}`, method: method.toUpperCase() as 'POST' | 'PUT', path: path.replace('{id}', String(productId)), body: bodies[path] };
      }),
  );
}

describe('with ADMIN_TOKEN set', () => {
  it('finds the five admin actions among the routes', async () => {
    expect((await adminActions()).map((a) => a.route).sort()).toEqual(['post /api/products/{id}/break-locks', 'post /api/products/{id}/reset', 'post /api/runs', 'post /api/runs/batch', 'put /api/course']);
  });

  it.each([
    ['no Authorization header', {}, 401, 'unauthorized'],
    ['another scheme', { authorization: `Basic ${TOKEN}` }, 401, 'unauthorized'],
    ['a wrong token', bearer('not-the-token-at-all-0123456789'), 403, 'forbidden'],
    ['the token with one character more', bearer(`${TOKEN}x`), 403, 'forbidden'],
  ])('refuses every admin action with %s, and changes nothing', async (_case, headers, status, error) => {
    for (const action of await adminActions()) {
      const [inventory, waiting, course] = [(await service.get(`/api/products/${productId}/inventory`)).body, await queued(), (await service.get('/api/course')).body];
      const response = await send(action, headers);
      expect({ route: action.route, status: response.status, body: response.body }).toMatchObject({ route: action.route, status, body: { statusCode: status, error, message: expect.stringMatching(/ADMIN_TOKEN/) } });
      expect((await service.get(`/api/products/${productId}/inventory`)).body).toEqual(inventory);
      expect(await queued()).toBe(waiting);
      expect((await service.get('/api/course')).body).toEqual(course);
    }
  });

  it('tells a client without a token how to authenticate (WWW-Authenticate: Bearer)', async () => {
    const response = await service.app.inject({ method: 'POST', url: `/api/products/${productId}/break-locks` });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
  });

  it('lets every admin action through with the token', async () => {
    for (const action of await adminActions()) {
      const response = await send(action, bearer(TOKEN));
      expect({ route: action.route, ok: [200, 201].includes(response.status) }).toEqual({ route: action.route, ok: true });
    }
    expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ strategy: 'no-lock', initialStock: 9 });
  });

  it('keeps orders, no-ops and reads open', async () => {
    expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' })).status).toBe(201);
    expect((await service.post('/api/noop', { productId, quantity: 1, strategy: 'lua-decrement' })).status).toBe(200);
    expect((await service.get('/api/runs?limit=1')).status).toBe(200);
    expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ remaining: 4 });
  });
});

describe('bound beyond loopback', () => {
  it('refuses a configuration without ADMIN_TOKEN, naming it', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'lab.example.org']) expect(() => validateEnv({ HOST })).toThrow(/"ADMIN_TOKEN" is required when HOST is not a loopback address/);
    for (const HOST of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(() => validateEnv({ HOST })).not.toThrow();
    expect(() => validateEnv({ HOST: '0.0.0.0', ADMIN_TOKEN: TOKEN })).not.toThrow();
    expect(() => validateEnv({ ADMIN_TOKEN: 'short' })).toThrow(/"ADMIN_TOKEN" length must be at least 16/);
  });

  it('does not start: exit 1 with the reason, before it listens', () => {
    const result = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', resolve(__dirname, '../src/main.ts')], {
      env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../tsconfig.json'), HOST: '0.0.0.0', PORT: '0', ADMIN_TOKEN: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/order-service failed to start: invalid configuration: "ADMIN_TOKEN" is required when HOST is not a loopback address/);
    expect(result.stdout).not.toMatch(/listening on/);
  });
});
