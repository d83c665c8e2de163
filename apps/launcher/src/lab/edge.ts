import { say } from '@oversell/cli';
import { isLoopbackHost, WILDCARD_BINDS } from '@oversell/contracts';
import { pinnedCommand } from '@oversell/loadtests';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswerFigures } from './answer-count';
import { ENSURE_NGINX_SCRIPT, NGINX_TEMPLATE } from './paths';

/**
 * The lab's single entry point: Debian's nginx, configured from docker-compose's own template
 * (infra/nginx/default.conf.template) rendered for the lab's ports, in front of the instances. It serves
 * the built dashboard, forwards /api, /health and /metrics round-robin over keep-alive connections
 * (server-sent events unbuffered), checks the Host, sets the security headers and answers its own
 * refusals in the lab's JSON body. Its upstreams are rewritten and reloaded whenever the lab's list of
 * live instances changes.
 */
export interface EdgeOptions {
  /** 0: a free port. */
  port: number;
  /** The bind address, loopback by default; beyond it the instances must require ADMIN_TOKEN. */
  host?: string;
  /** The lab's ADMIN_TOKEN, which the instances check; nginx passes Authorization through. */
  adminToken?: string;
  /** Names the lab is reached by beyond loopback (the Host check's list, with the loopback names and a specific bind address). */
  publicHosts?: readonly string[];
  /** The instances, as `http://127.0.0.1:<port>`. */
  upstreams: readonly string[];
  dashboardDir: string;
  /**
   * Logs each 2xx answer of the forwarding routes (its time and duration) so that `answers` can count
   * them, as a bare server counts its own: the bench's no-op through the edge. Off, nothing is logged.
   */
  countAnswers?: boolean;
}

export interface Edge {
  url: string;
  port: number;
  /** nginx's master process. */
  pid: number;
  /** Rewrites the upstreams and reloads nginx; resolves once its new workers answer. */
  setUpstreams(upstreams: readonly string[]): Promise<void>;
  /** The forwarded 2xx answers logged since the last take (countAnswers); a new count starts. */
  takeAnswers(): Promise<AnswerFigures>;
  stop(): Promise<void>;
}

/** Beyond loopback the admin actions must need a token: without one the lab does not start. */
export function assertAdminTokenFor(host: string, adminToken: string | undefined): void {
  if (!isLoopbackHost(host) && !adminToken) {
    throw new Error(`the gateway would listen on ${host}, beyond loopback, with admin actions (resets, runs, break-locks) open to anyone: set ADMIN_TOKEN (16 or more characters)`);
  }
}

/** What the lab's configuration replaces in compose's template: each must be found exactly once. */
const REOPEN_LOG = 'notice.log';

const TEMPLATE_ANCHORS = {
  upstream: 'server order-service:3000;',
  listen: 'listen 80;',
  root: 'root /usr/share/nginx/html;',
  publicHost: '  ${LAB_PUBLIC_HOST} 1;\n',
} as const;

export interface EdgeConfig {
  listen: string;
  /** `host:port` of each instance; none: the lab's own 503 answers. */
  upstreams: readonly string[];
  root: string;
  hostNames: readonly string[];
  /** The lab's working directory for nginx: pid, logs, temp files, the control socket. */
  dir: string;
  generation: number;
  countAnswers: boolean;
}

/** The main configuration and compose's server block, rendered for the lab. */
export function renderEdgeConfig(template: string, config: EdgeConfig): { main: string; server: string } {
  const quote = (name: string) => `"${name.toLowerCase().replace(/["\\]/g, '')}"`;
  const noInstance = `unix:${config.dir}/control.sock`;
  const replacements: Record<keyof typeof TEMPLATE_ANCHORS, string> = {
    upstream: (config.upstreams.length ? config.upstreams : [noInstance]).map((upstream) => `server ${upstream};`).join('\n  '),
    listen: `listen ${config.listen};`,
    root: `root ${config.root};`,
    publicHost: config.hostNames.map((name) => `  ${quote(name)} 1;\n`).join(''),
  };
  let server = template;
  for (const [key, anchor] of Object.entries(TEMPLATE_ANCHORS) as [keyof typeof TEMPLATE_ANCHORS, string][]) {
    if (server.split(anchor).length !== 2) throw new Error(`${NGINX_TEMPLATE} no longer has "${anchor.trim()}" once: the lab cannot render it`);
    server = server.replace(anchor, replacements[key]);
  }
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${config.dir}/${kind};\n`).join('');
  // The 2xx answers of the forwarding routes, with when they ended and how long they took (AnswerCount's figures).
  // Buffered (a write() per answer cost the gateway's share): takeAnswers has nginx flush it first.
  const counted = config.countAnswers
    ? `  map "$status $uri" $lab_counted {\n    "~^2\\d\\d /(api|health|metrics)" 1;\n    default 0;\n  }\n` +
      `  log_format lab_answers '$msec $request_time';\n  access_log ${config.dir}/answers.log lab_answers buffer=64k if=$lab_counted;\n`
    : '  access_log off;\n';
  // The workers' "reopening logs" (notice), logged just before a reopen flushes the buffered log: takeAnswers' witness.
  const reopenLog = config.countAnswers ? `error_log ${config.dir}/${REOPEN_LOG} notice;\n` : '';
  const main =
    // One worker: on the lab's two cores a second competes with the instances it serves. Its workers run as
    // the user who starts the lab (as root, nginx would otherwise switch them to nobody).
    `worker_processes 1;\n${process.getuid?.() === 0 ? 'user root;\n' : ''}pid ${config.dir}/nginx.pid;\nerror_log ${config.dir}/error.log warn;\n${reopenLog}` +
    // The load tool's connections and as many to the instances.
    `worker_rlimit_nofile 8192;\nevents { worker_connections 4096; }\n` +
    `http {\n  include /etc/nginx/mime.types;\n${counted}${temps}  include ${config.dir}/default.conf;\n` +
    // The upstream while no instance is up (nginx needs one), and the reload's witness: the generation
    // the workers answering now were started with.
    `  server {\n    listen ${noInstance};\n    default_type application/json;\n    location = /.generation { return 200 "${config.generation}"; }\n` +
    `    location / {\n      add_header Retry-After 1 always;\n      add_header Content-Language $lab_locale always;\n      return 503 '{"statusCode":503,"error":"store_unavailable","message":"$lab_says_no_instance"}';\n    }\n  }\n` +
    // In the language of the request it stands in for (forwarded with its query and headers): the template's $lab_locale.
    `  map $lab_locale $lab_says_no_instance {\n    zh-CN "没有正在运行的 order-service 实例；启动器正在重启它们";\n    default "no order-service instance is up; the launcher is restarting them";\n  }\n}\n`;
  return { main, server };
}

/** nginx's path; installs Debian's package when it is missing and this is root (infra/scripts/ensure-nginx.sh). */
export function ensureNginx(): string {
  try {
    return execFileSync('bash', [ENSURE_NGINX_SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch {
    throw new Error(
      say({
        en: 'the lab needs nginx in front of its instances: install it with `sudo apt-get install -y nginx-light` (Debian/Ubuntu), or put an nginx on PATH',
        zh: '实验室需要 nginx 作为实例前面的网关：请用 `sudo apt-get install -y nginx-light`（Debian/Ubuntu）安装，或把 nginx 放到 PATH 中',
      }),
    );
  }
}

/** Starts nginx in front of the upstreams; it also stops once this process has exited, however it ends. */
export async function startEdge(options: EdgeOptions): Promise<Edge> {
  const host = options.host ?? '127.0.0.1';
  assertAdminTokenFor(host, options.adminToken);
  const nginx = ensureNginx();
  const port = options.port || (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'oversell-edge-'));
  const template = readFileSync(NGINX_TEMPLATE, 'utf8');
  const countAnswers = options.countAnswers ?? false;
  const listen = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const hostNames = [...(options.publicHosts ?? []), ...(WILDCARD_BINDS.includes(host) ? [] : [host])]
    .map((name) => (name.includes(':') && !name.startsWith('[') ? `[${name}]` : name))
    .filter((name) => !isLoopbackHost(name));
  let generation = 0;
  const write = (upstreams: readonly string[]) => {
    const rendered = renderEdgeConfig(template, { listen, upstreams: upstreams.map((url) => new URL(url).host), root: options.dashboardDir, hostNames, dir, generation: ++generation, countAnswers });
    writeFileSync(join(dir, 'nginx.conf'), rendered.main);
    writeFileSync(join(dir, 'default.conf'), rendered.server);
  };
  write(options.upstreams);
  const config = join(dir, 'nginx.conf');
  execFileSync(nginx, ['-t', '-q', '-p', dir, '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const child = spawn(...pinnedCommand('lab', nginx, ['-p', dir, '-c', config, '-g', 'daemon off;']), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  // A launcher that dies (SIGKILL, a crashed test run) leaves no nginx holding the port, nor its directory: a
  // watcher in a session of its own ends them (as local-server.sh's stop_with_owner does for the lab's other servers).
  const watch = 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -TERM "$2" 2>/dev/null; while kill -0 "$2" 2>/dev/null; do sleep 0.1; done; rm -rf "$3"';
  spawn('bash', ['-c', watch, '_', String(process.pid), String(child.pid), dir], {
    detached: true,
    stdio: 'ignore',
  }).unref();
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await answersGeneration(dir, generation, child);
  } catch (error) {
    await stop();
    throw new Error(`nginx did not start (${(error as Error).message}): ${stderr.trim() || readLog(join(dir, 'error.log'))}`);
  }
  let queue = Promise.resolve();
  let logOffset = 0;
  return {
    url: `http://${WILDCARD_BINDS.includes(host) || isLoopbackHost(host) ? '127.0.0.1' : listen.slice(0, listen.lastIndexOf(':'))}:${port}`,
    port,
    pid: child.pid!,
    // One reload at a time, in the order asked: the last list written is the one served.
    setUpstreams: (upstreams) =>
      (queue = queue.then(async () => {
        write(upstreams);
        child.kill('SIGHUP');
        await answersGeneration(dir, generation, child);
      })),
    // In the reloads' queue: the worker that logs the reopen is then the one whose answer follows.
    takeAnswers: () => {
      const taken = queue.then(async () => {
        await flushAnswers(dir, child);
        return readAnswers();
      });
      queue = taken.then(
        () => undefined,
        () => undefined,
      );
      return taken;
    },
    stop,
  };

  function readAnswers(): AnswerFigures {
    const log = readLog(join(dir, 'answers.log'));
    const lines = log.slice(logOffset).split('\n').filter(Boolean);
    logOffset = log.length;
    const figures: AnswerFigures = { answers: 0, firstRequestAt: Infinity, lastAnswerAt: 0 };
    for (const line of lines) {
      const [endSec, tookSec] = line.split(' ').map(Number);
      figures.answers++;
      figures.firstRequestAt = Math.min(figures.firstRequestAt, (endSec - tookSec) * 1000);
      figures.lastAnswerAt = Math.max(figures.lastAnswerAt, endSec * 1000);
    }
    return figures;
  }
}

/**
 * Has nginx write out the buffered answers log: USR1 reopens the logs, flushing their buffers. The worker
 * logs "reopening logs" just before it flushes, in the same turn of its event loop, so the control
 * request it answers after that line is answered once the flush is written.
 */
async function flushAnswers(dir: string, child: ChildProcess): Promise<void> {
  const reopens = () =>
    readLog(join(dir, REOPEN_LOG))
      .split('\n')
      .filter((line) => (WORKER_REOPEN.exec(line)?.[1] ?? String(child.pid)) !== String(child.pid)).length;
  const before = reopens();
  child.kill('SIGUSR1');
  const deadline = Date.now() + 10_000;
  while (reopens() === before) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx exited (${child.signalCode ?? child.exitCode}) before it flushed its answers log`);
    if (Date.now() > deadline) throw new Error('nginx did not reopen its logs within 10 s: its answers are not counted');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await generationAnswered(dir);
}

/** Polls the control socket until nginx's workers answer with this generation's configuration (a reload is asynchronous). */
async function answersGeneration(dir: string, generation: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`it exited (${child.signalCode ?? child.exitCode})`);
    // The new workers answer it, and the old ones are gone: an old worker still finishing its
    // connections serves a kept-alive client one more request under the old upstreams.
    if ((await generationAnswered(dir).catch(() => null)) === String(generation) && workersOf(child.pid!) <= 1) return;
    if (Date.now() > deadline) throw new Error(`its workers did not load configuration ${generation} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** nginx's worker processes (the master's children, the lab's config runs one): more while old ones shut down. */
function workersOf(master: number): number {
  let workers = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === master) workers++;
    } catch {
      // Gone meanwhile.
    }
  }
  return workers;
}

function generationAnswered(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a kept-alive one would stay with an old worker.
    const req = request({ socketPath: join(dir, 'control.sock'), path: '/.generation', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A process's "reopening logs" line in nginx's error log, with its pid (the master logs one too). */
const WORKER_REOPEN = /\[notice\] (\d+)#\d+: reopening logs$/;

function readLog(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** A free TCP port, found by letting the OS pick one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
