import { Inject, Injectable } from '@nestjs/common';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { ProductRunSettings, QueuedOrderView } from '@oversell/contracts';
import type { Result } from 'ioredis';
import { RedisConnections } from '../../redis/redis-connections';
import { StockKeys } from '../../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import type { OrderStreamHost, StockStrategy } from '../../stock-strategy';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../../strategy-registry';
import type { OrderWriteBacklog, RunOrderWrites } from '../order-queue/order-write-queue';
import type { NewOrder, QueuedOrder } from '../order-recorder';

const DROP_STREAM_IF_EMPTY = loadLuaScript(__dirname, 'drop-stream-if-empty-1.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    dropStreamIfEmptyV1(stream: string): Result<number, Context>;
  }
}

/**
 * A run's order stream key, its product and run: `<prefix>:{p42}:<run>:orders` on the lab's Redis, or a
 * segment's `{<prefix>:p42:<run>:seg3.1}:orders` on a Cluster.
 */
const RUN_OF_STREAM = /p(\d+)\}?:([^:{}]+)(?::seg\d+\.\d+\})?:orders$/;

/** The consumer group every instance's stream writer reads in: one group, so each entry goes to one writer. */
export const ORDER_STREAM_GROUP = 'order-writers';
/** The entry's one field: the order as the placement encoded it (encodeOrder). */
const ORDER_FIELD = 'o';

/** The order a take script appends (DeductContext.orderIntent): the fields of its row; the entry id carries when it was taken. */
export function encodeOrder(order: NewOrder): string {
  return JSON.stringify(order);
}

/** A stream entry's order, queued at the time of the take (the entry id's milliseconds are Redis's clock then). */
export function decodeEntry(id: string, fields: readonly string[]): QueuedOrder {
  const at = fields.indexOf(ORDER_FIELD);
  // The parsed order is this entry's own: completed in place rather than copied.
  const order = JSON.parse(fields[at + 1]) as QueuedOrder;
  order.queuedAt = entryTime(id);
  return order;
}

function entryTime(id: string): number {
  return Number(id.slice(0, id.indexOf('-')));
}

/** The backlog of the lab's order streams: the queue's figures, plus the entries a writer holds unacknowledged. */
export interface OrderStreamBacklog extends OrderWriteBacklog {
  /** Entries delivered to a writer and not acknowledged yet: in its batch, or left by a writer that died until another claims them. */
  pending: number;
}

/**
 * orderWrite 'stream': by default one stream per product run on the lab's Redis, under the product's hash
 * tag beside its stock, so the take script may append to it; a strategy may keep its own (segmented-cluster:
 * one per segment, on the cluster: StockStrategy.orderStreams). Each host lists the streams that may hold
 * orders in one set (StockKeys.orderStreams) that the writers read; a stream joins it when its run is
 * reset, with the writers' group.
 */
@Injectable()
export class OrderStreams {
  /** The lab's Redis, as a host: one XREADGROUP reads all its streams. */
  readonly labHost: OrderStreamHost;
  private readonly openedListeners = new Set<(host: OrderStreamHost) => void>();

  constructor(
    connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
    @Inject(STOCK_STRATEGIES) private readonly strategies: StrategyRegistry,
  ) {
    // At start-up, not at a first drop: see defineStockCellScripts.
    this.labHost = { name: 'the lab\'s Redis', redis: useScripts(connections.commands, [DROP_STREAM_IF_EMPTY]), readsTogether: true };
  }

  get registry(): string {
    return StockKeys.orderStreams(this.options.keyPrefix);
  }

  /** Every host whose streams this process's writers read: the lab's Redis, and each configured strategy host. */
  hosts(): OrderStreamHost[] {
    const own = this.strategies.all().flatMap((strategy) => (strategy.orderStreams?.configured ? [strategy.orderStreams.host] : []));
    return [this.labHost, ...new Set(own)];
  }

  /**
   * Creates the run's streams and the writers' group (from the first entry: "0") before any order can be
   * appended, and lists them for the writers. Run at the reset, before the settings switch orders to the run.
   */
  async open(settings: ProductRunSettings, strategy: StockStrategy): Promise<void> {
    const { host, streams } = await this.streamsOf(settings, strategy);
    for (const stream of streams) {
      await host.redis.xgroup('CREATE', stream, ORDER_STREAM_GROUP, '0', 'MKSTREAM').catch((error: Error) => {
        if (!error.message.startsWith('BUSYGROUP')) throw error;
      });
      await host.redis.sadd(this.registry, stream);
    }
    for (const listener of this.openedListeners) listener(host);
  }

  /**
   * Calls `listener` with the host each time this process opens a run's streams on it (its writers, idle,
   * then read at once); the returned function stops it.
   */
  onOpened(listener: (host: OrderStreamHost) => void): () => void {
    this.openedListeners.add(listener);
    return () => this.openedListeners.delete(listener);
  }

  /**
   * Drops a stream of a run that is over, unless it still holds orders not written: those are kept (and
   * listed) until the writers have inserted them; then a writer (or a later reset) drops it.
   */
  async dropIfWritten(stream: string, host: OrderStreamHost = this.labHost): Promise<boolean> {
    // Defined here for a strategy's host, which connects at first use (useScripts defines a script once).
    if ((await useScripts(host.redis, [DROP_STREAM_IF_EMPTY]).dropStreamIfEmptyV1(stream)) !== 1) return false;
    await host.redis.srem(this.registry, stream);
    return true;
  }

  /**
   * The run is over (its lab run has drained): its streams go if every order in them is written. A take
   * on the run afterwards is refused as if its stock were gone (append-order's streamGone).
   */
  async close(settings: ProductRunSettings): Promise<boolean> {
    const { host, streams } = await this.streamsOf(settings, this.strategies.get(settings.strategy));
    let dropped = true;
    for (const stream of streams) dropped = (await this.dropIfWritten(stream, host)) && dropped;
    return dropped;
  }

  /** The product and run a listed stream is of; null for a key of another shape. */
  static runOf(stream: string): { productId: number; runId: string } | null {
    const match = RUN_OF_STREAM.exec(stream);
    return match ? { productId: Number(match[1]), runId: match[2] } : null;
  }

  /** The order of a take, as the client is answered: its id is the request id, its row follows. */
  view(order: NewOrder): QueuedOrderView {
    return { id: null, ...order, createdAt: new Date().toISOString(), replayed: false, queued: true };
  }

  /** Every listed stream's entries not written yet, those held by a writer, and the oldest one's age, over every host. */
  async backlog(): Promise<OrderStreamBacklog> {
    let depth = 0;
    let pending = 0;
    let oldest = Infinity;
    for (const host of this.hosts()) {
      for (const stream of await host.redis.smembers(this.registry)) {
        const [length, summary, first] = await Promise.all([
          host.redis.xlen(stream),
          host.redis.xpending(stream, ORDER_STREAM_GROUP).catch(() => [0]),
          host.redis.xrange(stream, '-', '+', 'COUNT', 1),
        ]);
        depth += length;
        pending += Number(summary[0] ?? 0);
        // Written entries are deleted: the first one left is the oldest not written.
        if (first.length) oldest = Math.min(oldest, entryTime(first[0][0]));
      }
    }
    return { depth, pending, retrying: 0, failed: 0, oldestAgeMs: Number.isFinite(oldest) ? Math.max(0, Date.now() - oldest) : 0 };
  }

  /** One run's orders still in its streams: entries are deleted once written, and none fails for good. */
  async runBacklog(runId: string): Promise<RunOrderWrites> {
    let stillQueued = 0;
    for (const host of this.hosts()) {
      const streams = (await host.redis.smembers(this.registry)).filter((stream) => OrderStreams.runOf(stream)?.runId === runId);
      for (const length of await Promise.all(streams.map((stream) => host.redis.xlen(stream)))) stillQueued += length;
    }
    return { stillQueued, failed: 0 };
  }

  private async streamsOf(settings: ProductRunSettings, strategy: StockStrategy): Promise<{ host: OrderStreamHost; streams: readonly string[] }> {
    const own = strategy.orderStreams;
    if (!own) return { host: this.labHost, streams: [StockKeys.of(this.options.keyPrefix, settings).orders] };
    return { host: own.host, streams: await own.of(settings) };
  }
}
