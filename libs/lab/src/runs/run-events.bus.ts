import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { RunEvent } from '@oversell/contracts';
import { RedisConnections, reportTrouble, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type Redis from 'ioredis';
import * as Joi from 'joi';
import { readMessage } from '../pubsub-message';
import { runEventsChannel } from '../redis-keys';

type Listener = (event: RunEvent) => void;

/** What a listener relies on; the rest of an event is passed through to the browser as it came. */
const RUN_EVENT = Joi.object<RunEvent>({ type: Joi.string().valid('status', 'progress', 'lock', 'result').required(), runId: Joi.string().required() });

/**
 * Run events cross instances through Redis pub/sub: the worker publishes on one instance, and the
 * SSE stream a browser opened may be served by any other.
 */
@Injectable()
export class RunEventsBus implements OnApplicationShutdown {
  private readonly logger = new Logger(RunEventsBus.name);
  private subscriber?: Redis;
  private readonly listeners = new Map<string, { listeners: Set<Listener>; subscribed: Promise<unknown> }>();

  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  private channel(runId: string): string {
    return runEventsChannel(this.options.keyPrefix, runId);
  }

  async publish(event: RunEvent): Promise<void> {
    await this.connections.control.publish(this.channel(event.runId), JSON.stringify(event));
  }

  /** Resolves once the subscription is live, so no event published after it returns is missed. */
  async subscribe(runId: string, listener: Listener): Promise<() => Promise<void>> {
    const subscriber = this.connect();
    const channel = this.channel(runId);
    let entry = this.listeners.get(channel);
    if (!entry) this.listeners.set(channel, (entry = { listeners: new Set(), subscribed: subscriber.subscribe(channel) }));
    entry.listeners.add(listener);
    const unsubscribe = async () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0 && this.listeners.get(channel) === entry) {
        this.listeners.delete(channel);
        await subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
    // Every subscriber waits for the SUBSCRIBE, not only the first; a failed one is forgotten and retried by the next.
    await entry.subscribed.catch(async (error) => {
      if (this.listeners.get(channel) === entry) this.listeners.delete(channel);
      throw error;
    });
    return unsubscribe;
  }

  private connect(): Redis {
    if (!this.subscriber) {
      this.subscriber = reportTrouble(this.connections.control.duplicate(), 'run events');
      // Nothing may throw out of this listener: inside ioredis a throw is an uncaught exception.
      this.subscriber.on('message', (channel: string, message: string) => {
        const event = readMessage(RUN_EVENT, channel, message, this.logger);
        if (!event) return;
        for (const listener of this.listeners.get(channel)?.listeners ?? []) {
          try {
            listener(event);
          } catch (error) {
            this.logger.error(`a listener of ${channel} failed on a ${event.type} event`, error instanceof Error ? error.stack : String(error));
          }
        }
      });
    }
    return this.subscriber;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
