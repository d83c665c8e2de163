import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAB_HELMET_OPTIONS } from '@oversell/contracts';
import { sendEndlessBody, sendRawRequest, UNPARSABLE_REQUESTS } from '@oversell/contracts/testing';
import helmet from 'helmet';
import { startEdge, type Edge } from './edge';

/** A GET with the Host header as given (fetch will not let a caller set Host). */
function get(port: number, path: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return send(port, { path, host });
}

/** A request with the target and Host written as given: fetch would normalise an absolute-form or malformed target. */
function send(
  port: number,
  { method = 'GET', path, host = `127.0.0.1:${port}`, body, headers: more = {} }: { method?: string; path: string; host?: string; body?: string; headers?: Record<string, string> },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { host, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...more };
    // A connection of its own (no agent): nginx closes its idle keep-alive connections when it reloads.
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The lab's gateway, nginx rendered from compose's template (edge.ts), in front of stand-in instances:
 * the behaviours the Node gateway it replaced had, held by the same tests.
 */

/** helmet's headers, which every answer of the gateway must carry as a routed one does. */
const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy'];

describe('the gateway', () => {
  let gateway: Edge;
  let port: number;

  beforeAll(async () => {
    const dashboardDir = mkdtempSync(join(tmpdir(), 'oversell-gateway-'));
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>lab</title>');
    gateway = await startEdge({ port: 0, publicHosts: ['Lab.Example.org', '[fd00::7]'], upstreams: [], dashboardDir });
    port = gateway.port;
  });

  afterAll(() => gateway?.stop());

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
      const refused = await get(port, '/api/strategies', host);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 503, error: 'store_unavailable' });
      expect(refused.headers['retry-after']).toBe('1');
    }
  });

  it("answers its own refusals in the language asked for (?lang=, else Accept-Language's first range, else English), saying so in Content-Language", async () => {
    const ask = async (path: string, host: string, acceptLanguage?: string) => {
      const answer = await send(port, { path, host, headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } });
      return { status: answer.status, language: answer.headers['content-language'], body: JSON.parse(answer.body) };
    };
    const zhMisdirected = { status: 421, language: 'zh-CN', body: { statusCode: 421, error: 'misdirected_request', message: '本实验室不响应 Host evil.example；请使用回环地址名或它的公开主机名之一（LAB_PUBLIC_HOST）' } };
    expect(await ask('/api/strategies', 'evil.example', 'zh-CN,zh;q=0.9,en;q=0.5')).toEqual(zhMisdirected);
    expect(await ask('/api/strategies', 'evil.example', 'zh')).toEqual(zhMisdirected);
    expect(await ask('/api/strategies?lang=zh-CN', 'evil.example')).toEqual(zhMisdirected);
    const en = { status: 421, language: 'en', body: { statusCode: 421, error: 'misdirected_request', message: expect.stringContaining('this lab does not answer for Host evil.example') } };
    expect(await ask('/api/strategies?lang=en', 'evil.example', 'zh-CN')).toEqual(en);
    expect(await ask('/api/strategies', 'evil.example', 'en-GB,zh;q=0.8')).toEqual(en);
    expect(await ask('/api/strategies', 'evil.example')).toEqual(en);
    // A `lang` the service has no texts in counts for nothing: the header's language, as the service answers.
    expect(await ask('/api/strategies?lang=ZH-cn', 'evil.example', 'zh-CN')).toEqual(zhMisdirected);
    expect(await ask('/api/../etc/passwd', 'localhost', 'zh-CN')).toEqual({ status: 400, language: 'zh-CN', body: { statusCode: 400, error: 'malformed_url', message: "路径中有 '..' 段（原样或百分号编码）：实验室不转发这样的路径" } });
    // No instance up: the lab's 503, past the Host check, in the language of the request it stands in for.
    expect(await ask('/api/strategies?lang=zh-CN', 'localhost')).toEqual({ status: 503, language: 'zh-CN', body: { statusCode: 503, error: 'store_unavailable', message: '没有正在运行的 order-service 实例；启动器正在重启它们' } });
    expect(await ask('/api/strategies', 'localhost')).toMatchObject({ status: 503, language: 'en', body: { message: 'no order-service instance is up; the launcher is restarting them' } });
    // The dashboard's files are no answer of its own: no language said.
    expect((await send(port, { path: '/', host: 'localhost', headers: { 'accept-language': 'zh-CN' } })).headers['content-language']).toBeUndefined();
  });

  it('sets on each of its answers the headers helmet itself sets on a response, with their values', async () => {
    // helmet run for real on a plain server's response: what the gateway's record of it must reproduce.
    const helmeted = await standIn((req, res) => helmet(LAB_HELMET_OPTIONS)(req, res, () => res.end()));
    try {
      const { headers: byHelmet } = await get((helmeted.address() as AddressInfo).port, '/', 'localhost');
      const expected = Object.fromEntries(Object.entries(byHelmet).filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)));
      expect(Object.keys(expected)).toEqual(expect.arrayContaining(SECURITY_HEADERS));
      const answers = [
        await get(port, '/', `127.0.0.1:${port}`), // a dashboard file
        await get(port, '/runs/r1', `127.0.0.1:${port}`), // a client route: index.html
        await get(port, '/api/strategies', 'evil.example'), // its 421
        await get(port, '/api/strategies', `127.0.0.1:${port}`), // its 503: no instance is up
      ];
      for (const answer of answers) expect({ status: answer.status, headers: answer.headers }).toEqual({ status: answer.status, headers: expect.objectContaining(expected) });
    } finally {
      await new Promise((resolve) => helmeted.close(resolve));
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

describe('the gateway, when the instance it picks has just died', () => {
  let gateway: Edge;
  let live: Server;
  let port: number;
  let upstreams: string[];
  const served: string[] = [];

  beforeAll(async () => {
    // A real instance stand-in, and a port nobody listens on (an instance SIGKILLed a moment ago).
    live = await standIn((req, res) => {
      served.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"live"}');
    });
    const dead = await closedPort();
    upstreams = [`http://127.0.0.1:${dead}`, `http://127.0.0.1:${(live.address() as AddressInfo).port}`];
  });

  // A gateway of its own for each test: nginx keeps a refusing instance out for a while (fail_timeout).
  beforeEach(async () => {
    served.length = 0;
    gateway = await startEdge({ port: 0, upstreams, dashboardDir: tmpdir() });
    port = gateway.port;
  });

  afterEach(() => gateway?.stop());

  afterAll(async () => {
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

  it('sends an order the dead instance refused to connect for (nothing reached it) to the live one, once', async () => {
    const answers = await Promise.all([0, 1].map(() => fetch(`http://127.0.0.1:${port}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })));
    // One of the two was first sent to the dead instance (round robin): a refused connection carried nothing.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(served).toEqual(['POST /api/orders', 'POST /api/orders']);
  });

  it('takes an instance out of its upstreams and back in as the lab says', async () => {
    // Each order on a connection of its own: a pooled keep-alive connection may be one the reload just closed.
    const order = () => send(port, { method: 'POST', path: '/api/orders', body: '{}' });
    await gateway.setUpstreams(upstreams.slice(1));
    const answers = await Promise.all([0, 1].map(order));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await gateway.setUpstreams([]);
    expect((await order()).status).toBe(503);
    await gateway.setUpstreams(upstreams.slice(1));
    expect((await order()).status).toBe(200);
  });
});

describe('the gateway, in front of a stand-in instance', () => {
  let gateway: Edge;
  let instance: Server;
  let port: number;
  const served: string[] = [];

  beforeAll(async () => {
    instance = await standIn((req, res) => {
      served.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"instance"}');
    });
    const dashboardDir = mkdtempSync(join(tmpdir(), 'oversell-gateway-'));
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>lab</title>');
    gateway = await startEdge({ port: 0, upstreams: [`http://127.0.0.1:${(instance.address() as AddressInfo).port}`], dashboardDir });
    port = gateway.port;
  });

  beforeEach(() => {
    served.length = 0;
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => instance?.close(resolve));
  });

  it('forwards an absolute-form target (as sent to a proxy) by its path and query, as the instance itself would take it', async () => {
    const answer = await send(port, { method: 'POST', path: `http://127.0.0.1:${port}/api/orders?x=1`, body: '{}' });
    expect(answer).toMatchObject({ status: 200, body: '{"from":"instance"}' });
    expect(served).toEqual(['POST /api/orders?x=1']);
  });

  it.each(['http://evil.example/api/orders', 'http://evil.example:8080/api/orders', 'http://lab.example.org.evil.example/api/orders'])(
    'answers an absolute-form target for another host (%s) 421, whatever the Host header says, forwarding nothing',
    async (target) => {
      const answer = await send(port, { method: 'POST', path: target, body: '{}' });
      expect(answer.status).toBe(421);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 421, error: 'misdirected_request' });
      expect(served).toEqual([]);
    },
  );

  it('refuses an endless body (declared 1 GiB) itself: 413 payload_too_large with Connection: close, forwarding nothing, and still answers', async () => {
    const answer = await sendEndlessBody(port, '/api/orders');
    expect(answer).toMatchObject({ status: 413, closed: true, headers: { connection: 'close' } });
    // nginx drains what follows for its lingering time (so the client reads the 413), not up to a count of bytes.
    expect(served).toEqual([]);
    expect((await send(port, { path: '/' })).status).toBe(200);
  });

  it('forwards a query it cannot decode (?x=%zz) untouched: the instance decides', async () => {
    expect(await send(port, { path: '/api/strategies?x=%zz' })).toMatchObject({ status: 200 });
    expect(served).toEqual(['GET /api/strategies?x=%zz']);
  });

  it.each([
    ['a bad percent-escape (%zz)', '/api/products/%zz/inventory', 'percent-escape'],
    ['an encoded .. segment', '/api/products/%2e%2e/inventory', "'..' segment"],
  ])('answers a path with %s itself, 400 malformed_url in the lab’s body with the security headers, forwarding nothing', async (_what, path, message) => {
    const answer = await send(port, { path });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 400, error: 'malformed_url', message: expect.stringContaining(message) });
    const routed = await send(port, { path: '/' });
    for (const name of SECURITY_HEADERS) expect({ name, value: answer.headers[name] }).toEqual({ name, value: routed.headers[name] });
    expect(served).toEqual([]);
  });

  it.each(UNPARSABLE_REQUESTS.map((bad) => [bad.case, bad] as const))('answers %s (refused by its parser) itself in the lab’s body with the security headers, forwarding nothing', async (_case, bad) => {
    const answer = await sendRawRequest(port, bad.text);
    expect(answer.status).toBe(bad.status);
    expect(JSON.parse(answer.body)).toEqual({ statusCode: bad.status, error: bad.error, message: expect.any(String) });
    const routed = await send(port, { path: '/' });
    for (const name of SECURITY_HEADERS) expect({ name, value: answer.headers[name] }).toEqual({ name, value: routed.headers[name] });
    expect(served).toEqual([]);
  });

  it('answers a path it has no file for with the dashboard’s index.html (a client route), forwarding nothing', async () => {
    const answer = await send(port, { path: '/runs/r1' });
    expect(answer).toMatchObject({ status: 200, body: '<!doctype html><title>lab</title>' });
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(served).toEqual([]);
  });
});

describe('the gateway, counting its answers (the bench’s no-op through it)', () => {
  let gateway: Edge;
  let instance: Server;
  let port: number;

  beforeAll(async () => {
    instance = await standIn((req, res) => {
      const refused = req.url === '/api/orders';
      res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' }).end(refused ? '{"error":"validation_failed"}' : '{"ok":true}');
    });
    const dashboardDir = mkdtempSync(join(tmpdir(), 'oversell-gateway-'));
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>lab</title>');
    gateway = await startEdge({ port: 0, upstreams: [`http://127.0.0.1:${(instance.address() as AddressInfo).port}`], dashboardDir, countAnswers: true });
    port = gateway.port;
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => instance?.close(resolve));
  });

  it('counts the 2xx answers it forwarded, not the refusals, its own answers or the dashboard’s files', async () => {
    const before = Date.now();
    for (let i = 0; i < 3; i++) expect((await send(port, { method: 'POST', path: '/api/noop', body: '{}' })).status).toBe(200);
    expect((await send(port, { method: 'POST', path: '/api/orders', body: '{}' })).status).toBe(400);
    expect((await send(port, { path: '/' })).status).toBe(200);
    expect((await send(port, { path: '/api/x', host: 'evil.example' })).status).toBe(421);
    const counted = await gateway.takeAnswers();
    expect(counted.answers).toBe(3);
    expect(counted.firstRequestAt).toBeGreaterThanOrEqual(before - 1);
    expect(counted.lastAnswerAt).toBeGreaterThanOrEqual(counted.firstRequestAt);
    // take starts a new count.
    expect(await gateway.takeAnswers()).toEqual({ answers: 0, firstRequestAt: Infinity, lastAnswerAt: 0 });
  });
});

describe('the gateway, when the instance does not answer properly', () => {
  let gateway: Edge;
  const instances: Server[] = [];
  let port: number;
  /** The requests the stand-ins hold unanswered; broken off when the test says. */
  const held: ServerResponse[] = [];
  let arrived: () => void = () => undefined;

  beforeAll(async () => {
    // Two instances that read the body first, as an instance does before it places the order, and hold it.
    for (let i = 0; i < 2; i++) {
      instances.push(
        await standIn((req, res) => {
          req.resume();
          req.on('end', () => {
            held.push(res);
            arrived();
          });
        }),
      );
    }
  });

  // A gateway of its own for each test: nginx keeps an instance that failed out for a while (fail_timeout).
  beforeEach(async () => {
    held.length = 0;
    gateway = await startEdge({ port: 0, upstreams: instances.map((instance) => `http://127.0.0.1:${(instance.address() as AddressInfo).port}`), dashboardDir: tmpdir() });
    port = gateway.port;
  });

  afterEach(async () => {
    for (const res of held) res.destroy();
    await gateway?.stop();
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => new Promise((resolve) => instance.close(resolve))));
  });

  it('answers an order whose instance breaks the connection mid-request 502 bad_gateway in the lab’s body, and sends it to no other instance', async () => {
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const answering = send(port, { method: 'POST', path: '/api/orders', body: '{}' });
    await reached;
    // It dies with the order in hand.
    held[0].socket!.destroy();
    const answer = await answering;
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toEqual({ statusCode: 502, error: 'bad_gateway', message: expect.stringContaining('same idempotencyKey') });
    expect(held).toHaveLength(1);
  });

  it('sends a read whose instance broke the connection mid-request on to the other one (it is safe to repeat)', async () => {
    let reachedTwice: () => void = () => undefined;
    const twice = new Promise<void>((resolve) => (reachedTwice = resolve));
    arrived = () => {
      if (held.length === 1) held[0].socket!.destroy();
      else reachedTwice();
    };
    const answering = send(port, { path: '/api/runs/r1' });
    await twice;
    held[1].writeHead(200, { 'content-type': 'application/json' }).end('{"from":"second"}');
    expect(await answering).toMatchObject({ status: 200, body: '{"from":"second"}' });
  });
});

describe('the gateway, in front of an instance slower than its old 30 s wait', () => {
  let gateway: Edge;
  let instance: Server;

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => instance?.close(resolve));
  });

  // An order of 30 s business time behind a pause was answered 504 at 30 s, and then placed.
  it('waits for the instance’s answer by default: the order’s own settings bound it, not the gateway', async () => {
    const ANSWER_AFTER_MS = 31_000;
    instance = await standIn((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{"placed":true}'), ANSWER_AFTER_MS));
    });
    gateway = await startEdge({ port: 0, upstreams: [`http://127.0.0.1:${(instance.address() as AddressInfo).port}`], dashboardDir: tmpdir() });
    const answer = await send(gateway.port, { method: 'POST', path: '/api/orders', body: '{}' });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 201, body: '{"placed":true}' });
  }, 60_000);
});

/** An instance's stand-in: a plain HTTP server on a loopback port of its own, listening. */
async function standIn(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** A port that was just free: bound, then closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
