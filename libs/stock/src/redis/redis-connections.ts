import { OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { StockOptions } from '../stock.options';
import { reportTrouble } from './connection-trouble';
import { sentinelOptions } from './sentinel-group';
import { StoreCutProxy } from './store-cut-proxy';

/**
 * The process's two Redis connections: one for commands (each strategy defines its Lua scripts on it) and
 * one in subscriber mode for the watchdog's release messages, which cannot share a connection. With
 * options.storeProxy both go through this process's StoreCutProxy, which a store-cut fault cuts.
 */
export class RedisConnections implements OnApplicationShutdown {
  /** The stock stores' and the locks' commands: through the store-cut proxy when there is one. */
  readonly commands: Redis;
  /**
   * The lab's own bookkeeping (heartbeats, figures, run events, fault counters): straight to Redis, never
   * through the proxy, so a store cut cuts the stock and the locks off, not the lab's view of the instance
   * (a cut of more than a few heartbeats would otherwise have the run declare the instance gone).
   * The same connection as `commands` when there is no proxy.
   */
  readonly control: Redis;
  /**
   * Where the single-Redis locks keep their keys: the Sentinel group's master when one is given (the
   * failover fault fails it over), else `commands`. The stock stays on `commands` either way: the
   * failover pitfall is the lock lost with a master, and a stock lost with it would make the run's
   * figures mean nothing (the reconciliation reads the stock the orders took from). Not behind the
   * store-cut proxy: a store cut cuts the stock's Redis.
   */
  readonly locks: Redis;
  private subscriberConnection?: Redis;
  private lockSubscriberConnection?: Redis;

  /** The proxy has to listen before the connections are made, hence an async factory. */
  static async open(options: StockOptions): Promise<RedisConnections> {
    return new RedisConnections(options, options.storeProxy ? await StoreCutProxy.open(options.redis) : null);
  }

  constructor(
    private readonly options: StockOptions,
    /** The store-cut fault's proxy, when this process's connections go through one. */
    readonly storeCut: StoreCutProxy | null = null,
  ) {
    // Fail a command after two reconnection attempts rather than queue it for ever: the caller answers
    // store_unavailable and takes no stock, instead of hanging while Redis is down.
    // Auto-pipelining batches the commands issued in one tick (settings + idempotency check) into one write.
    // Not behind the store-cut proxy: a batch cut off mid-flight can leave ioredis's auto-pipeline callbacks
    // out of step and throw an uncaught TypeError ("results[i] is not iterable", ioredis #1931), killing the
    // instance that a store cut should only have cut off. A lab measured with the proxy is slower anyway.
    this.commands = reportTrouble(new Redis({ maxRetriesPerRequest: 2, enableAutoPipelining: !this.storeCut, ...this.redisOptions }), 'commands');
    this.control = this.storeCut ? reportTrouble(new Redis({ maxRetriesPerRequest: 2, enableAutoPipelining: true, ...this.options.redis }), 'control') : this.commands;
    this.locks = this.sentinels ? reportTrouble(new Redis({ maxRetriesPerRequest: 2, enableAutoPipelining: true, ...this.sentinels }), 'locks (Sentinel group)') : this.commands;
  }

  /** The Sentinel group the locks are on, as ioredis options; null when none is given. */
  get sentinels(): ReturnType<typeof sentinelOptions> | null {
    const sentinels = this.options.lockServices?.['redis-sentinel'];
    return sentinels ? sentinelOptions(sentinels, this.options.sentinelMaster) : null;
  }

  private get redisOptions(): StockOptions['redis'] {
    return { ...this.options.redis, ...this.storeCut?.route };
  }

  /** Created on first use: most strategies never subscribe. */
  get subscriber(): Redis {
    this.subscriberConnection ??= reportTrouble(new Redis({ maxRetriesPerRequest: 2, ...this.redisOptions }), 'subscriber');
    return this.subscriberConnection;
  }

  /** `locks`'s subscriber: a lock's release messages are published on the Redis that holds it. */
  get lockSubscriber(): Redis {
    if (this.locks === this.commands) return this.subscriber;
    this.lockSubscriberConnection ??= reportTrouble(new Redis({ maxRetriesPerRequest: 2, ...this.sentinels }), 'lock subscriber (Sentinel group)');
    return this.lockSubscriberConnection;
  }

  async onApplicationShutdown(): Promise<void> {
    const opened = new Set([this.commands, this.control, this.locks, this.subscriberConnection, this.lockSubscriberConnection].filter((c): c is Redis => c !== undefined));
    await Promise.all([...opened].map((c) => c.quit().catch(() => c.disconnect())));
    await this.storeCut?.close();
  }
}
