import type Redis from 'ioredis';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { connectRedisNodes } from '../redis-nodes';
import { startLockServer } from '../lock-server';

// The same depth from src/testing and from dist/testing.
const ENSURE_REDIS_NODES = resolve(__dirname, '../../../../infra/scripts/ensure-redis-nodes.sh');

function ensureRedisNodes(args: string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('bash', [ENSURE_REDIS_NODES, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env }).trim();
}

/**
 * Five independent redis-servers for RedLock (infra/scripts/ensure-redis-nodes.sh), stopped once this
 * process exits, however it ends; REDLOCK_NODES, when set, is used instead. Sets REDLOCK_NODES so
 * processes started after it find the same nodes. Nobody faults these: a test that stops or restarts
 * nodes starts a RedisNodeGroup of its own.
 */
export function startRedisNodes(): string[] {
  return startLockServer('redis-nodes', 'REDLOCK_NODES').split(',');
}

/** The nodes the locks' jest global setup started (startRedisNodes). */
export function testRedisNodes(): string[] {
  const addresses = process.env.REDLOCK_NODES;
  if (!addresses) throw new Error('REDLOCK_NODES is not set: the locks jest config starts the nodes in its globalSetup (startRedisNodes)');
  return addresses.split(',');
}

/** Nodes of one test's own, to crash and restart one at a time; gone when the test process exits. */
export class RedisNodeGroup {
  private constructor(readonly addresses: string[]) {}

  /** `appendfsync`: with `appendonly`, when the AOF is fsynced (always, the default, or everysec). */
  static start({ nodes = 5, appendonly = false, appendfsync = 'always' }: { nodes?: number; appendonly?: boolean; appendfsync?: 'always' | 'everysec' } = {}): RedisNodeGroup {
    const { REDLOCK_NODES: _shared, ...env } = process.env;
    const args = ['start', '--nodes', String(nodes), '--owner', String(process.pid), ...(appendonly ? ['--appendonly', '--appendfsync', appendfsync] : [])];
    return new RedisNodeGroup(ensureRedisNodes(args, env).split(','));
  }

  /** SIGKILLs node `index` (from 0), as a crash; returns once its port refuses connections. */
  stopNode(index: number): void {
    ensureRedisNodes(['stop-node', this.addresses[index]]);
  }

  /** Starts node `index` again on its port; `empty`: its data deleted first (a restart without persistence). */
  startNode(index: number, { empty = false } = {}): void {
    ensureRedisNodes(['start-node', this.addresses[index], ...(empty ? ['--empty'] : [])]);
  }

  stop(): void {
    ensureRedisNodes(['stop', this.addresses.join(',')]);
  }
}

/**
 * Five nodes of the calling test file's own, to crash, restart and pause (started in its beforeAll,
 * stopped in its afterAll), with clients that wait up to 2 s for a node: read the fields in the tests.
 */
export function useRedisNodeGroup(options: { appendonly?: boolean } = {}): { group: RedisNodeGroup; nodes: Redis[] } {
  const fixture = {} as { group: RedisNodeGroup; nodes: Redis[] };
  beforeAll(async () => {
    fixture.group = RedisNodeGroup.start(options);
    fixture.nodes = await connectRedisNodes(fixture.group.addresses, 2000);
  });
  afterAll(() => {
    fixture.nodes?.forEach((node) => node.disconnect());
    fixture.group?.stop();
  });
  return fixture;
}
