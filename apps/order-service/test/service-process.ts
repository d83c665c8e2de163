import { freshKeyPrefix } from '@oversell/stock/testing';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { testStoresEnv } from './test-stores-env';

const APP_ROOT = resolve(__dirname, '..');
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;

export interface ServiceProcess {
  url: string;
  keyPrefix: string;
  instanceId: string;
  /** Every line the process wrote, stdout and stderr. */
  readonly output: readonly string[];
  /** False once the process has exited. */
  readonly alive: boolean;
  request(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  /** Sends an IPC message, for a preloaded hook to act on. */
  send(message: string): void;
  /** Sends the process a signal. */
  signal(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/**
 * The service as main.ts starts it, in an OS process of its own (TypeScript through ts-node), on the
 * test database and a key prefix of its own: what a crash would kill is a real process. `preload`
 * modules run before main.ts (a test's own hooks). `built`: the build in dist/ instead, as the launcher
 * starts it, without ts-node and the TypeScript compiler in its heap (a heap snapshot of it is a third
 * of the size, and written as much faster).
 */
export async function startServiceProcess({ env = {}, preload = [], built = false }: { env?: Record<string, string>; preload?: string[]; built?: boolean } = {}): Promise<ServiceProcess> {
  if (built && preload.length) throw new Error('preload modules are TypeScript: they need the service run from source');
  const port = await freePort();
  const keyPrefix = freshKeyPrefix();
  const instanceId = `process-test-${port}`;
  const args = built
    ? [resolve(APP_ROOT, 'dist', 'main.js')]
    : ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', ...preload.flatMap((p) => ['-r', p]), resolve(APP_ROOT, 'src', 'main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: APP_ROOT,
    env: {
      ...process.env,
      TS_NODE_PROJECT: resolve(APP_ROOT, 'tsconfig.json'),
      HOST: '127.0.0.1',
      PORT: String(port),
      INSTANCE_ID: instanceId,
      ...testStoresEnv(keyPrefix),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output: string[] = [];
  const exited = once(child, 'exit');
  const ready = new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not listen within ${READY_TIMEOUT_MS} ms:\n${output.join('\n')}`)), READY_TIMEOUT_MS);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        if (line.includes(' listening on ')) {
          clearTimeout(timer);
          resolveReady();
        }
      });
    }
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the service exited before it listened:\n${output.join('\n')}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    keyPrefix,
    instanceId,
    output,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    async request(path, { method = 'GET', body } = {}) {
      const response = await fetch(`${url}${path}`, { method, headers: body === undefined ? undefined : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    send: (message) => void child.send(message),
    signal: (signal) => void child.kill(signal),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A TCP port that is free right now, picked by the OS. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
