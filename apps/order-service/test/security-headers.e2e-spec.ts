import { startService, type ServiceUnderTest } from './service-under-test';

/** Helmet's headers on every answer; CORS for nobody by default, for the CORS_ORIGINS allow-list when set. */
const ALLOWED = 'https://workshop.example';
const OTHER = 'https://evil.example';

let service: ServiceUnderTest;

afterEach(async () => {
  delete process.env.CORS_ORIGINS;
  await service?.close();
});

const get = (url: string, origin: string) => service.app.inject({ method: 'GET', url, headers: { origin } });
const preflight = (origin: string) =>
  service.app.inject({ method: 'OPTIONS', url: '/api/runs', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });

it('sends the security headers on the API and its docs, with the lab’s CSP', async () => {
  service = await startService();
  for (const url of ['/api/strategies', '/api/docs', '/api/no-such-route']) {
    const { headers } = await get(url, ALLOWED);
    expect({ url, nosniff: headers['x-content-type-options'], frame: headers['x-frame-options'] }).toEqual({ url, nosniff: 'nosniff', frame: 'SAMEORIGIN' });
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();
  }
  // The hot routes are Fastify's own, outside Nest's router: the same headers.
  const noop = await service.app.inject({ method: 'POST', url: '/api/noop', payload: { productId: 1, quantity: 1, strategy: 'lua-decrement' } });
  expect(noop.statusCode).toBe(200);
  expect({ nosniff: noop.headers['x-content-type-options'], csp: noop.headers['content-security-policy'] }).toEqual({ nosniff: 'nosniff', csp: expect.stringContaining("script-src 'self'") });
});

it('allows no cross-origin caller by default', async () => {
  service = await startService();
  expect((await get('/api/strategies', ALLOWED)).headers['access-control-allow-origin']).toBeUndefined();
  expect((await preflight(ALLOWED)).headers['access-control-allow-origin']).toBeUndefined();
});

it('allows exactly the origins in CORS_ORIGINS, admin header included', async () => {
  service = await startService({ CORS_ORIGINS: `${ALLOWED},http://127.0.0.1:5173` });
  expect((await get('/api/strategies', ALLOWED)).headers['access-control-allow-origin']).toBe(ALLOWED);
  expect((await get('/api/strategies', OTHER)).headers['access-control-allow-origin']).toBeUndefined();
  const allowed = await preflight(ALLOWED);
  expect(allowed.statusCode).toBe(204);
  expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
  expect(String(allowed.headers['access-control-allow-headers'])).toMatch(/authorization/);
  expect((await preflight(OTHER)).headers['access-control-allow-origin']).toBeUndefined();
});
