import { Inject, Injectable } from '@nestjs/common';
import { loadLuaScript, useScripts } from '@oversell/locks';
import type { ProductRunSettings, QueuedOrderView } from '@oversell/contracts';
import type { default as Redis, Result } from 'ioredis';
import { RedisConnections } from '../../redis/redis-connections';
import { StockKeys } from '../../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import type { OrderWriteBacklog, RunOrderWrites } from '../order-queue/order-write-queue';
import type { NewOrder, QueuedOrder } from '../order-recorder';

const DROP_STREAM_IF_EMPTY = loadLuaScript(__dirname, 'drop-stream-if-empty-2.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    dropStreamIfEmptyV1(stream: string, registry: string): Result<number, Context>;
  }
}

/** A run's order stream key: its product and run. */
const RUN_OF_STREAM = /\{p(\d+)\}:([^:]+):orders$/;

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
  return { ...(JSON.parse(fields[at + 1]) as NewOrder), queuedAt: entryTime(id) };
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
 * orderWrite 'stream': one stream per product run, under the product's hash tag beside its stock, so the
 * take script may append to it. The streams that may hold orders are listed in one set (StockKeys.
 * orderStreams) that the writers read; a stream joins it when its run is reset, with the writers' group.
 */
@Injectable()
export class OrderStreams {
  private readonly redis: Redis;

  constructor(
    connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    // At start-up, not at a first drop: see defineStockCellScripts.
    this.redis = useScripts(connections.commands, [DROP_STREAM_IF_EMPTY]);
  }

  get registry(): string {
    return StockKeys.orderStreams(this.options.keyPrefix);
  }

  /**
   * Creates the run's stream and the writers' group (from the first entry: "0") before any order can be
   * appended, and lists it for the writers. Run at the reset, before the settings switch orders to the run.
   */
  async open(settings: ProductRunSettings): Promise<void> {
    const stream = StockKeys.of(this.options.keyPrefix, settings).orders;
    await this.redis.xgroup('CREATE', stream, ORDER_STREAM_GROUP, '0', 'MKSTREAM').catch((error: Error) => {
      if (!error.message.startsWith('BUSYGROUP')) throw error;
    });
    await this.redis.sadd(this.registry, stream);
  }

  /**
   * Drops a stream of a run that is over, unless it still holds orders not written: those are kept (and
   * listed) until the writers have inserted them; then a writer (or a later reset) drops it.
   */
  async dropIfWritten(stream: string): Promise<boolean> {
    return (await this.redis.dropStreamIfEmptyV1(stream, this.registry)) === 1;
  }

  /**
   * The run is over (its lab run has drained): its stream goes if every order in it is written. A take
   * on the run afterwards is refused as if its stock were gone (append-order's streamGone).
   */
  async close(settings: Pick<ProductRunSettings, 'productId' | 'runId'>): Promise<boolean> {
    return this.dropIfWritten(StockKeys.of(this.options.keyPrefix, settings).orders);
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

  /** Every listed stream's entries not written yet, those held by a writer, and the oldest one's age. */
  async backlog(): Promise<OrderStreamBacklog> {
    const streams = await this.redis.smembers(this.registry);
    let depth = 0;
    let pending = 0;
    let oldest = Infinity;
    for (const stream of streams) {
      const [length, summary, first] = await Promise.all([
        this.redis.xlen(stream),
        this.redis.xpending(stream, ORDER_STREAM_GROUP).catch(() => [0]),
        this.redis.xrange(stream, '-', '+', 'COUNT', 1),
      ]);
      depth += length;
      pending += Number(summary[0] ?? 0);
      // Written entries are deleted: the first one left is the oldest not written.
      if (first.length) oldest = Math.min(oldest, entryTime(first[0][0]));
    }
    return { depth, pending, retrying: 0, failed: 0, oldestAgeMs: Number.isFinite(oldest) ? Math.max(0, Date.now() - oldest) : 0 };
  }

  /** One run's orders still in its stream: entries are deleted once written, and none fails for good. */
  async runBacklog(runId: string): Promise<RunOrderWrites> {
    const streams = (await this.redis.smembers(this.registry)).filter((stream) => stream.endsWith(`:${runId}:orders`));
    const lengths = await Promise.all(streams.map((stream) => this.redis.xlen(stream)));
    return { stillQueued: lengths.reduce((sum, n) => sum + n, 0), failed: 0 };
  }
}
