import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { REPO_ROOT } from './paths';
import type { Lab } from './lab';
import { freePort, startTestLab, testLabEnv } from '../testing/test-lab';

/**
 * docker-compose's nginx config (infra/nginx/default.conf.template) rendered as the nginx image renders
 * it (envsubst) and run by Debian's nginx in front of a real instance, against the launcher's gateway
 * (the same template rendered by edge.ts) in front of the same instance: the same Host check (421
 * misdirected_request) and the same security headers, each sent once.
 */
const TEMPLATE = join(REPO_ROOT, 'infra', 'nginx', 'default.conf.template');
const PUBLIC_HOST = 'lab.example.org';
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'strict-transport-security',
];

interface Answer {
  status: number;
  rawHeaders: string[];
  body: string;
}

/** A GET with the Host header as given (fetch will not let a caller set Host). */
function get(port: number, path: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Each security header's values as sent (a header sent twice shows twice). */
function securityHeaders(answer: Answer): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i].toLowerCase();
    if (SECURITY_HEADERS.includes(name)) (found[name] ??= []).push(answer.rawHeaders[i + 1]);
  }
  return found;
}

/** The template as the nginx image renders it (envsubst of the set variables), pointed at `upstream`. */
function renderedConfig(dir: string, port: number, upstream: string): string {
  const server = readFileSync(TEMPLATE, 'utf8')
    .replaceAll('${LAB_PUBLIC_HOST}', PUBLIC_HOST)
    .replace('server order-service:3000;', `server ${upstream};`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('root /usr/share/nginx/html;', `root ${dir};`);
  writeFileSync(join(dir, 'default.conf'), server);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>lab</title>');
  // The image's main nginx.conf, reduced to what a test needs: its own pid, logs and temp files.
  const main = join(dir, 'nginx.conf');
  writeFileSync(
    main,
    `daemon off;\nuser root;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents {}\nhttp {\n  include /etc/nginx/mime.types;\n  access_log off;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};\n`).join('') +
      `  include ${dir}/default.conf;\n}\n`,
  );
  return main;
}

let lab: Lab;
let nginx: ChildProcess | undefined;
let nginxPort: number;
let gatewayPort: number;
let nginxBinary: string;

beforeAll(async () => {
  nginxBinary = execFileSync('bash', [join(REPO_ROOT, 'infra', 'scripts', 'ensure-nginx.sh')], { encoding: 'utf8' }).trim();
  // Its instance knows the public host as compose's replicas do (LAB_PUBLIC_HOST): nginx passes the Host on.
  lab = await startTestLab(1, { env: { ...testLabEnv(), LAB_PUBLIC_HOST: PUBLIC_HOST } });
  gatewayPort = Number(new URL(lab.gatewayUrl).port);
  nginxPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'oversell-nginx-'));
  const config = renderedConfig(dir, nginxPort, new URL(lab.instances[0].url).host);
  execFileSync(nginxBinary, ['-t', '-q', '-c', config]);
  nginx = spawn(nginxBinary, ['-c', config], { stdio: 'inherit' });
  // Up once it answers (nginx says nothing when it listens).
  for (let tries = 0; ; tries++) {
    const up = await get(nginxPort, '/', '127.0.0.1').then(
      () => true,
      () => false,
    );
    if (up) break;
    if (tries > 100 || nginx.exitCode !== null) throw new Error('nginx did not come up');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  nginx?.kill('SIGQUIT');
  await lab?.stop();
});

describe("docker-compose's nginx, as the gateway", () => {
  it.each(['evil.example', 'evil.example:8080', 'lab.example.org.evil.example', '127.0.0.1.nip.io'])('answers Host %s 421 misdirected_request, forwarding nothing', async (host) => {
    for (const path of ['/api/strategies', '/']) {
      const answer = await get(nginxPort, path, host);
      expect(answer.status).toBe(421);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 421, error: 'misdirected_request' });
      expect(Object.keys(securityHeaders(answer))).toHaveLength(SECURITY_HEADERS.length - 1);
      expect(securityHeaders(answer)).toEqual(securityHeaders(await get(gatewayPort, path, host)));
    }
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '127.3.2.1', PUBLIC_HOST, 'LAB.Example.org'])('serves Host %s (with a port or without)', async (name) => {
    for (const host of [name, `${name}:8080`]) {
      const answer = await get(nginxPort, '/api/strategies', host);
      expect(answer.status).toBe(200);
      expect(answer.rawHeaders).toContain('x-instance');
    }
  });

  // The events block now comes first (nginx takes the first regular expression that matches: it was
  // never used), and it must pass the Host on: without it every stream is a 421 from the instance.
  it('streams a run’s events as they happen, through the events block', async () => {
    const created = await fetch(`${lab.gatewayUrl}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'lua-decrement', initialStock: 100, load: { connections: 5, durationSec: 3 } }),
    });
    const run = (await created.json()) as { id: string };
    const stream = await fetch(`http://127.0.0.1:${nginxPort}/api/runs/${run.id}/events`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^event: status$/m);
    // The first event arrived while the run was still going.
    const now = (await (await fetch(`${lab.gatewayUrl}/api/runs/${run.id}`)).json()) as { status: string };
    expect(['queued', 'running']).toContain(now.status);
    await reader.cancel();
  });

  it.each(['/api/strategies', '/', '/api/products/1/nothing-here'])("sends the gateway's security headers on %s, each once", async (path) => {
    const host = `127.0.0.1:${nginxPort}`;
    const viaNginx = securityHeaders(await get(nginxPort, path, host));
    expect(Object.keys(viaNginx).sort()).toEqual(SECURITY_HEADERS.filter((name) => name !== 'strict-transport-security').sort());
    expect(viaNginx).toEqual(securityHeaders(await get(gatewayPort, path, `127.0.0.1:${gatewayPort}`)));
  });
});
