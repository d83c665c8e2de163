import type { FastifyInstance } from 'fastify';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendEndlessBody } from '@oversell/contracts/testing';
import { startGateway } from './gateway';

/** A GET with the Host header as given (fetch will not let a caller set Host). */
function get(port: number, path: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the gateway', () => {
  let gateway: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    const dashboardDir = mkdtempSync(join(tmpdir(), 'oversell-gateway-'));
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>lab</title>');
    gateway = await startGateway({ port: 0, publicHosts: ['Lab.Example.org', '[fd00::7]'], upstreams: () => [], dashboardDir });
    port = (gateway.server.address() as { port: number }).port;
  });

  afterAll(() => gateway?.close());

  it.each(['evil.example', 'evil.example:8080', 'lab.example.org.evil.example', '127.0.0.1.nip.io', 'example.org'])(
    'answers 421 misdirected_request to Host %s (DNS rebinding), forwarding nothing',
    async (host) => {
      const response = await get(port, '/api/strategies', host);
      expect(response.status).toBe(421);
      expect(JSON.parse(response.body)).toMatchObject({ statusCode: 421, error: 'misdirected_request', message: expect.stringContaining('does not answer for Host') });
      expect((await get(port, '/', host)).status).toBe(421);
      // Its own refusals carry the security headers too.
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    },
  );

  it.each(['127.0.0.1', 'localhost', '[::1]', 'lab.example.org', 'LAB.example.org', '[fd00::7]'])('serves Host %s (with its port or without)', async (name) => {
    for (const host of [name, `${name}:${port}`]) {
      expect((await get(port, '/', host)).status).toBe(200);
      // No instance is up here: the gateway's own 503, past the Host check.
      expect((await get(port, '/api/strategies', host)).status).toBe(503);
    }
  });

  it('refuses an endless body (declared 1 GiB) itself: 413 payload_too_large with Connection: close, after reading at most 1 MiB more', async () => {
    const answer = await sendEndlessBody(port, '/api/orders');
    expect(answer).toMatchObject({ status: 413, closed: true, headers: { connection: 'close' } });
    // 1 MiB drained while lingering; the rest is what both loopback sockets buffer.
    expect(answer.bodyBytesWritten).toBeLessThan(16 * 1024 ** 2);
    expect((await get(port, '/', `127.0.0.1:${port}`)).status).toBe(200);
  });

  it('sends the security headers, with a CSP the dashboard can live with', async () => {
    const { headers } = await get(port, '/', `127.0.0.1:${port}`);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['strict-transport-security']).toBeUndefined();
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Plain http on a LAN address must not be upgraded to an https nobody serves.
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('the gateway, when the instance it picks has just died', () => {
  let gateway: FastifyInstance;
  let live: Server;
  let port: number;
  const served: string[] = [];

  beforeAll(async () => {
    // A real instance stand-in, and a port nobody listens on (an instance SIGKILLed a moment ago).
    live = createServer((req, res) => {
      served.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"live"}');
    });
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    const dead = await closedPort();
    const upstreams = [`http://127.0.0.1:${dead}`, `http://127.0.0.1:${(live.address() as AddressInfo).port}`];
    gateway = await startGateway({ port: 0, upstreams: () => upstreams, dashboardDir: tmpdir() });
    port = (gateway.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => live?.close(resolve));
  });

  it('sends a read on to the next instance instead of answering 500', async () => {
    // Round robin: the two reads start at different instances, and both reach the live one.
    for (let i = 0; i < 2; i++) {
      const response = await get(port, '/api/runs/r1', `127.0.0.1:${port}`);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ from: 'live' });
    }
    expect(served).toEqual(['GET /api/runs/r1', 'GET /api/runs/r1']);
  });

  it('answers anything else 503 instance_unavailable with Retry-After, sending it nowhere else (it may not be safe twice)', async () => {
    served.length = 0;
    const answers = await Promise.all([0, 1].map(() => fetch(`http://127.0.0.1:${port}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })));
    const refused = answers.filter((answer) => answer.status === 503);
    // One of the two went to the dead instance (round robin), the other to the live one.
    expect(refused).toHaveLength(1);
    expect(refused[0].headers.get('retry-after')).toBe('1');
    expect(await refused[0].json()).toMatchObject({ statusCode: 503, error: 'instance_unavailable' });
    expect(served).toEqual(['POST /api/orders']);
  });
});

/** A port that was just free: bound, then closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
