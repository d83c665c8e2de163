import type { FastifyInstance } from 'fastify';
import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    },
  );

  it.each(['127.0.0.1', 'localhost', '[::1]', 'lab.example.org', 'LAB.example.org', '[fd00::7]'])('serves Host %s (with its port or without)', async (name) => {
    for (const host of [name, `${name}:${port}`]) {
      expect((await get(port, '/', host)).status).toBe(200);
      // No instance is up here: the gateway's own 503, past the Host check.
      expect((await get(port, '/api/strategies', host)).status).toBe(503);
    }
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
