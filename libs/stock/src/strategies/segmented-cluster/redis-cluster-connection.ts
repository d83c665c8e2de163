import { Cluster, type default as Redis } from 'ioredis';
import type { StrategyDeps } from '../../compose/strategy-definition';
import { LockServiceMissingError } from '../../errors';
import { defineStockCellScripts } from '../../redis/redis-stock';

/** Connection attempts to an unreachable cluster before its waiting commands fail (about 1.5 s in all). */
const CLUSTER_CONNECT_TRIES = 5;

/**
 * This process's client of the Redis Cluster at REDIS_CLUSTER_NODES, made at first use: the process
 * starts without the cluster, and an order then gets the 503 that names the variable.
 */
export class RedisClusterConnection {
  private client?: Redis;
  private closed = false;

  constructor(
    /** REDIS_CLUSTER_NODES: host:port, comma-separated. */
    private readonly nodes: string | undefined,
    onShutdown: StrategyDeps['onShutdown'],
  ) {
    onShutdown(() => {
      // No client after this: a user still running at shutdown (a stream writer's loop) must not open a new one.
      this.closed = true;
      return this.client?.quit().catch(() => this.client?.disconnect());
    });
  }

  /** Whether this process is given a cluster (REDIS_CLUSTER_NODES). */
  get configured(): boolean {
    return Boolean(this.nodes);
  }

  /**
   * ioredis's Cluster sends the same commands and scripts as a single Redis (it routes each by its key's
   * slot), so the stock cell and lock code takes it as one; only a command over keys of several slots fails.
   */
  get redis(): Redis {
    if (!this.client) {
      if (this.closed) throw new Error('the Redis Cluster connection is closed: this process is shutting down');
      const nodes = this.nodes;
      if (!nodes) throw new LockServiceMissingError('redis-cluster');
      const cluster = new Cluster(
        nodes.split(',').map((address) => ({ host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) })),
        {
          // As the single Redis's connection: fail a command after two retries rather than queue it, and
          // batch each tick's commands (per node, here).
          enableAutoPipelining: true,
          redisOptions: { maxRetriesPerRequest: 2 },
          // While no node answers, the client keeps its commands in a queue of its own, by default until the
          // cluster is back: an order (and a run waiting on its figures) then hung for good. A few tries, then
          // the client ends and fails what it holds; the next use makes a new one.
          clusterRetryStrategy: (times: number) => (times > CLUSTER_CONNECT_TRIES ? null : 100 * times),
        },
      );
      const client = defineStockCellScripts(cluster as unknown as Redis);
      cluster.once('end', () => {
        if (this.client === client) this.client = undefined;
      });
      // Each command the cluster fails carries the error to its caller (a 503); the client's own copy is noise.
      cluster.on('error', () => undefined);
      this.client = client;
    }
    return this.client;
  }
}
