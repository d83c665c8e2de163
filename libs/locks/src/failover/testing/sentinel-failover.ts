import Redis, { type RedisOptions } from 'ioredis';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { MasterProxy } from './master-proxy';

// The same depth from src/failover/testing and from dist/failover/testing.
const ENSURE_REDIS_SENTINEL = resolve(__dirname, '../../../../../infra/scripts/ensure-redis-sentinel.sh');
const run = promisify(execFile);

/** The master's name in the Sentinels' config (and in docker-compose's REDIS_SENTINEL_MASTER). */
export const SENTINEL_MASTER = 'lab-master';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** ioredis options for a client that finds the master through the Sentinels in `sentinels` (REDIS_SENTINELS). */
export function throughSentinels(sentinels: string, options: RedisOptions = {}): RedisOptions {
  return {
    sentinels: sentinels.split(',').map((address) => ({ host: address.split(':')[0], port: Number(address.split(':')[1]) })),
    name: SENTINEL_MASTER,
    ...options,
  };
}

/**
 * A master, its replica and three Sentinels of this test's own (infra/scripts/ensure-redis-sentinel.sh),
 * the master behind a MasterProxy so the test decides what reaches the replica; gone when the test
 * process exits. Started asynchronously: the proxy lives in this process and must forward the
 * replica's sync while the script waits for it.
 */
export class SentinelFailover {
  private constructor(
    readonly sentinels: string,
    readonly proxy: MasterProxy,
  ) {}

  static async start(): Promise<SentinelFailover> {
    const masterPort = await freePort();
    const proxy = await MasterProxy.start(masterPort);
    const { REDIS_SENTINELS: _shared, ...env } = process.env;
    const args = ['start', '--owner', String(process.pid), '--master-port', String(masterPort), '--master-behind', String(proxy.port)];
    try {
      const { stdout } = await run('bash', [ENSURE_REDIS_SENTINEL, ...args], { env, encoding: 'utf8' });
      return new SentinelFailover(stdout.trim(), proxy);
    } catch (error) {
      await proxy.stop();
      throw error;
    }
  }

  /** A client of the master, found through the Sentinels (ioredis `sentinels`); `role: 'slave'` for the replica. */
  connect(options: RedisOptions = {}): Redis {
    return new Redis(throughSentinels(this.sentinels, options));
  }

  /**
   * SIGKILLs the master (no shutdown, so nothing more is sent to anyone) and returns once a Sentinel
   * announces the promoted replica (+switch-master): "<name> <old ip> <old port> <new ip> <new port>".
   */
  async killMaster(): Promise<string> {
    const sentinel = new Redis({ host: '127.0.0.1', port: Number(this.sentinels.split(',')[0].split(':')[1]) });
    try {
      await sentinel.subscribe('+switch-master');
      const switched = once(sentinel, 'message');
      await run('bash', [ENSURE_REDIS_SENTINEL, 'kill-master', this.sentinels]);
      const [, message] = (await switched) as [string, string];
      return message;
    } finally {
      sentinel.disconnect();
    }
  }

  async stop(): Promise<void> {
    await run('bash', [ENSURE_REDIS_SENTINEL, 'stop', this.sentinels]);
    await this.proxy.stop();
  }
}
