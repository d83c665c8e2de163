import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import Redis from 'ioredis';

/** Debian's redis-server with a command's arguments, on a loopback port, its files in `dir`; resolves once it answers. */
export async function startRedis(command: readonly string[], port: number, dir: string): Promise<ChildProcess> {
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
export async function killRedis(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGKILL');
  await once(server, 'exit');
}
