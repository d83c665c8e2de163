import { JSON_HEADERS } from '@oversell/contracts/testing';
import { freshProductId } from '@oversell/stock/testing';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * DNS rebinding at an instance: its own port, on a loopback demo, takes admin actions without a token,
 * so a page whose name was re-pointed at 127.0.0.1 must be refused by its Host, as the gateway refuses it.
 */
let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService({ LAB_PUBLIC_HOST: 'lab.example.org, workshop.example, [fd00::9]' });
});

afterAll(async () => {
  delete process.env.LAB_PUBLIC_HOST;
  await service?.close();
});

const withHost = (host: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  service.app.inject({ method, url, headers: { ...JSON_HEADERS, host }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });

it.each(['attacker.example', 'attacker.example:3001', 'lab.example.org.attacker.example', '127.0.0.1.nip.io', 'attacker.example:abc', '[evil:]'])(
  'answers 421 misdirected_request to Host %s and changes nothing',
  async (host) => {
    const productId = freshProductId();
    expect((await service.post(`/api/products/${productId}/reset`, { stock: 5, strategy: 'lua-decrement' })).status).toBe(200);

    const reset = await withHost(host, 'POST', `/api/products/${productId}/reset`, { stock: 3, strategy: 'no-lock' });
    expect(reset.statusCode).toBe(421);
    expect(reset.json()).toMatchObject({ statusCode: 421, error: 'misdirected_request', message: expect.stringContaining('does not answer for Host') });
    // The refusal carries the security headers too.
    expect(reset.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect((await withHost(host, 'POST', '/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' })).statusCode).toBe(421);
    expect((await withHost(host, 'GET', '/api/strategies')).statusCode).toBe(421);

    expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ strategy: 'lua-decrement', initialStock: 5, remaining: 5, sold: 0 });
  },
);

it.each(['localhost', '127.0.0.1', '[::1]', '10.1.2.3', '[fd00::7]', 'lab.example.org', 'WORKSHOP.example', '[fd00::9]'])(
  'serves Host %s, with its port or without (loopback, an address, the lab’s public hosts)',
  async (name) => {
    for (const host of [name, `${name}:3001`]) expect((await withHost(host, 'GET', '/api/strategies')).statusCode).toBe(200);
  },
);
