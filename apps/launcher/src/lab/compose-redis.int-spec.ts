import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { REPO_ROOT } from './paths';
import { freePort } from '../testing/test-lab';

/**
 * docker-compose's Redis keeps the runs' stock keys across a restart: without a file on disk, a seeded
 * run's stock is gone after one, and every order answers 503 stock_store_lost until the product is reset
 * (issue 11). Its command line, read from docker-compose.yml, run by Debian's redis-server: a key written
 * before a kill -9 is there after the restart. The same check of the lab's local Redis settings (nothing
 * on disk, as the machine's shared Redis runs) loses the key, which is what this test sees of a compose
 * file without `--appendonly yes`.
 */
const COMPOSE_FILE = join(REPO_ROOT, 'docker-compose.yml');
const NOTHING_ON_DISK = ['redis-server', '--save', '', '--appendonly', 'no'];

/** The `command:` of a service in docker-compose.yml, written there as a one-line list (a JSON array). */
function composeCommand(service: string): string[] {
  const lines = readFileSync(COMPOSE_FILE, 'utf8').split('\n');
  const start = lines.indexOf(`  ${service}:`);
  if (start < 0) throw new Error(`no service ${service} in ${COMPOSE_FILE}`);
  const end = lines.findIndex((line, i) => i > start && /^ {2}\S/.test(line));
  const command = lines.slice(start, end < 0 ? undefined : end).find((line) => /^ {4}command: \[/.test(line));
  if (!command) throw new Error(`service ${service} in ${COMPOSE_FILE} has no one-line command: [...]`);
  return JSON.parse(command.replace(/^ {4}command: /, '')) as string[];
}

/** Debian's redis-server with a command's arguments, on a free loopback port, its files in `dir`; resolves once it answers. */
async function startRedis(command: string[], port: number, dir: string): Promise<ChildProcess> {
  const server = spawn('redis-server', [...command.slice(1), '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no'], { stdio: 'ignore' });
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  try {
    await Promise.race([
      probe.ping(),
      once(server, 'exit').then(([code]) => Promise.reject(new Error(`redis-server ${command.slice(1).join(' ')} exited (${code}) before it answered`))),
    ]);
  } finally {
    probe.disconnect();
  }
  return server;
}

/** SIGKILL: no shutdown hook, no save on the way out. */
async function kill(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGKILL');
  await once(server, 'exit');
}

/** Writes a key, kills the server, starts it again with the same command in the same directory: is the key there? */
async function keyOutlivesARestart(command: string[]): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'ol-compose-redis-'));
  const port = await freePort();
  let server = await startRedis(command, port, dir);
  try {
    const client = new Redis({ port, host: '127.0.0.1' });
    await client.set('ol:stock:42', '1000');
    client.disconnect();
    await kill(server);
    server = await startRedis(command, port, dir);
    const after = new Redis({ port, host: '127.0.0.1' });
    try {
      return (await after.get('ol:stock:42')) === '1000';
    } finally {
      after.disconnect();
    }
  } finally {
    await kill(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

it("docker-compose's Redis keeps a stock key across a kill and restart; a Redis with nothing on disk does not", async () => {
  const command = composeCommand('redis');
  expect(command[0]).toBe('redis-server');
  expect(await keyOutlivesARestart(NOTHING_ON_DISK)).toBe(false);
  expect(await keyOutlivesARestart(command)).toBe(true);
});
