import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RunEvent } from '@oversell/contracts';
import { RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type Redis from 'ioredis';

type Listener = (event: RunEvent) => void;

/**
 * Run events cross instances through Redis pub/sub: the worker publishes on one instance, and the
 * SSE stream a browser opened may be served by any other.
 */
@Injectable()
export class RunEventsBus implements OnApplicationShutdown {
  private subscriber?: Redis;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  private channel(runId: string): string {
    return `${this.options.keyPrefix}:run:{${runId}}:events`;
  }

  async publish(event: RunEvent): Promise<void> {
    await this.connections.commands.publish(this.channel(event.runId), JSON.stringify(event));
  }

  /** Resolves once the subscription is live, so no event published after it returns is missed. */
  async subscribe(runId: string, listener: Listener): Promise<() => Promise<void>> {
    const subscriber = this.connect();
    const channel = this.channel(runId);
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      await subscriber.subscribe(channel);
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        await subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  private connect(): Redis {
    if (!this.subscriber) {
      this.subscriber = this.connections.commands.duplicate();
      this.subscriber.on('message', (channel: string, message: string) => {
        const event = JSON.parse(message) as RunEvent;
        for (const listener of this.listeners.get(channel) ?? []) listener(event);
      });
    }
    return this.subscriber;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
