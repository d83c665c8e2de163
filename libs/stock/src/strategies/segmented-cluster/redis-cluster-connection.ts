import { Cluster, type default as Redis } from 'ioredis';
import type { StrategyDeps } from '../../compose/strategy-definition';
import { LockServiceMissingError } from '../../errors';
import { defineStockCellScripts } from '../../redis/redis-stock';

/**
 * This process's client of the Redis Cluster at REDIS_CLUSTER_NODES, made at first use: the process
 * starts without the cluster, and an order then gets the 503 that names the variable.
 */
export class RedisClusterConnection {
  private client?: Redis;

  constructor(
    /** REDIS_CLUSTER_NODES: host:port, comma-separated. */
    private readonly nodes: string | undefined,
    onShutdown: StrategyDeps['onShutdown'],
  ) {
    onShutdown(() => this.client?.quit().catch(() => this.client?.disconnect()));
  }

  /**
   * ioredis's Cluster sends the same commands and scripts as a single Redis (it routes each by its key's
   * slot), so the stock cell and lock code takes it as one; only a command over keys of several slots fails.
   */
  get redis(): Redis {
    if (!this.client) {
      const nodes = this.nodes;
      if (!nodes) throw new LockServiceMissingError('redis-cluster');
      const cluster = new Cluster(
        nodes.split(',').map((address) => ({ host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) })),
        // As the single Redis's connection: fail a command after two retries rather than queue it, and
        // batch each tick's commands (per node, here).
        { enableAutoPipelining: true, redisOptions: { maxRetriesPerRequest: 2 } },
      );
      this.client = defineStockCellScripts(cluster as unknown as Redis);
    }
    return this.client;
  }
}
