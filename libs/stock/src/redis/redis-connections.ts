import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';

/**
 * The process's two Redis connections: one for commands (each strategy defines its Lua scripts on it) and
 * one in subscriber mode for the watchdog's release messages, which cannot share a connection.
 */
@Injectable()
export class RedisConnections implements OnApplicationShutdown {
  readonly commands: Redis;
  private subscriberConnection?: Redis;

  constructor(@Inject(STOCK_OPTIONS) private readonly options: StockOptions) {
    // Fail a command after two reconnection attempts rather than queue it for ever: the caller answers
    // store_unavailable and takes no stock, instead of hanging while Redis is down.
    // Auto-pipelining batches the commands issued in one tick (settings + idempotency check) into one write.
    this.commands = new Redis({ maxRetriesPerRequest: 2, enableAutoPipelining: true, ...options.redis });
  }

  /** Created on first use: most strategies never subscribe. */
  get subscriber(): Redis {
    this.subscriberConnection ??= new Redis({ maxRetriesPerRequest: 2, ...this.options.redis });
    return this.subscriberConnection;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.commands, this.subscriberConnection].filter(Boolean).map((c) => c!.quit().catch(() => c!.disconnect())));
  }
}
