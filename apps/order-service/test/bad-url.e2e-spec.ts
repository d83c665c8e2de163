import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { sendRawRequest, UNPARSABLE_REQUESTS } from '@oversell/contracts/testing';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * Request targets Fastify's router refuses before any hook or Nest filter runs (its frameworkErrors), over
 * a real socket: a bad percent-escape, a path segment over maxParamLength. Each must get the lab's body
 * with the security headers, like any other refusal.
 */
let service: ServiceUnderTest;
let port: number;

beforeAll(async () => {
  service = await startService();
  await service.app.listen(0, '127.0.0.1');
  port = (service.app.getHttpServer().address() as AddressInfo).port;
});

afterAll(async () => {
  await service?.close();
});

/** A request with the target written as given: fetch would normalise or refuse it. */
function raw(method: string, path: string, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy'];

it.each([
  ['GET', '/api/products/%zz/inventory', undefined],
  ['POST', '/api/products/%zz/reset', '{"stock":5,"strategy":"lua-decrement"}'],
  ['GET', '/api/runs/%E0%A4%A', undefined],
])('answers %s %s (a bad percent-escape) 400 malformed_url with the security headers', async (method, path, body) => {
  const answer = await raw(method, path, body);
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ statusCode: 400, error: 'malformed_url', message: expect.stringContaining('percent-escape') });
  // The same headers as a routed answer (helmet's hook never ran for this one), and which instance answered.
  const routed = await raw('GET', '/api/strategies');
  for (const name of SECURITY_HEADERS) expect({ name, value: answer.headers[name] }).toEqual({ name, value: routed.headers[name] });
  expect(answer.headers['x-instance']).toBe(routed.headers['x-instance']);
});

it('answers a path segment over the router’s 100 characters 414 uri_too_long in the lab’s body', async () => {
  const answer = await raw('GET', `/api/runs/${'r'.repeat(101)}`);
  expect(answer.status).toBe(414);
  expect(answer.body).toMatchObject({ statusCode: 414, error: 'uri_too_long' });
  expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
});

it.each(UNPARSABLE_REQUESTS.map((bad) => [bad.case, bad] as const))('answers %s (refused by Node’s parser, before Fastify) in the lab’s body with the security headers', async (_case, bad) => {
  const answer = await sendRawRequest(port, bad.text);
  expect(answer.status).toBe(bad.status);
  expect(JSON.parse(answer.body)).toEqual({ statusCode: bad.status, error: bad.error, message: expect.any(String) });
  const routed = await raw('GET', '/api/strategies');
  for (const name of SECURITY_HEADERS) expect({ name, value: answer.headers[name] }).toEqual({ name, value: routed.headers[name] });
  expect(answer.headers['x-instance']).toBe(routed.headers['x-instance']);
  expect(answer.headers.connection).toBe('close');
});
