import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { reportQueueErrors, reportTrouble } from '../../redis/connection-trouble';
import { RedisConnections } from '../../redis/redis-connections';
import { STOCK_OPTIONS, type StockOptions } from '../../stock.options';
import { OrderBatches } from '../order-queue/order-batches';
import { ProductSettingsStore } from '../product-settings.store';
import type { QueuedOrder } from '../order-recorder';
import type { OrderStreamHost } from '../../stock-strategy';
import { decodeEntry, ORDER_STREAM_GROUP, OrderStreams } from './order-streams';

/** Most entries read (per stream) into one multi-row INSERT. */
export const ORDER_STREAM_BATCH = 500;
/**
 * How long one read waits for new entries. On a Cluster, where each stream is read on its own and none
 * can block for all, the pause after a first empty round.
 */
const READ_BLOCK_MS = 200;
/**
 * The longest pause between rounds that found nothing (no stream listed; on a Cluster, no entry): the
 * pause doubles from READ_BLOCK_MS each such round, so an idle lab stops asking. A stream opened in this
 * process wakes its writers at once; another process's writers find it within this.
 */
const IDLE_PAUSE_MAX_MS = 2000;
/** How many streams of a Cluster are read (or claimed from) at once, each its own command. */
const STREAMS_AT_ONCE = 16;
/**
 * How long an entry may stay delivered and unacknowledged before another writer claims it: its writer
 * died (or is stuck). Well above a batch's INSERT; a live writer whose batch is claimed anyway writes
 * rows the claimer skips (the INSERT ignores request ids already written), so a claim never doubles.
 */
export const ORDER_STREAM_CLAIM_IDLE_MS = 5000;
/** How often a writer looks for entries to claim. */
const CLAIM_EVERY_MS = 1000;
/** The pause after a failed batch (MySQL or Redis unreachable) before it is tried again. */
const RETRY_MS = 500;

/** Entries as XREADGROUP and XAUTOCLAIM answer them. */
type Entries = [id: string, fields: string[] | null][];

/**
 * Every instance's stream writer (unless StockOptions.writeQueuedOrders is false), like the queue's:
 * the consumer group shares the entries out, so writers add throughput and none is a single point of
 * failure. It reads the listed streams (COUNT, BLOCK), inserts a batch as one multi-row INSERT keyed by
 * request id, and only after the commit acknowledges and deletes the entries. A writer SIGKILLed between
 * the two leaves its entries pending; another claims them (XAUTOCLAIM) once they have been idle for
 * ORDER_STREAM_CLAIM_IDLE_MS, and the INSERT skips the rows already there.
 * XDEL after the ack, not XTRIM MINID: with several writers and claims, entries are not written in id
 * order, and a MINID trim at one writer's acknowledged id would drop older entries still pending at another.
 * One loop per host of streams (OrderStreams.hosts: the lab's Redis, a Redis Cluster); the lab's on a
 * connection of its own, since a blocking read holds its connection.
 */
@Injectable()
export class OrderStreamWriter implements OnApplicationBootstrap, OnApplicationShutdown {
  private loops: HostLoop[] = [];
  private running: Promise<void>[] = [];
  private unwatch: () => void = () => undefined;

  constructor(
    private readonly streams: OrderStreams,
    private readonly batches: OrderBatches,
    private readonly settingsStore: ProductSettingsStore,
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.writeQueuedOrders !== false) this.start();
  }

  /** Starts writing (at bootstrap, or later for a process started with writeQueuedOrders false). */
  start(): void {
    if (this.loops.length) return;
    // Through the store-cut proxy when there is one: the streams are the stock's Redis, cut with it.
    const own = reportTrouble(new Redis({ ...this.options.redis, ...this.connections.storeCut?.route, maxRetriesPerRequest: 2 }), 'order stream writer');
    this.loops = this.streams.hosts().map(
      (host) => new HostLoop(host === this.streams.labHost ? { ...host, redis: own } : host, this.options.instanceId, this.streams, this.batches, this.settingsStore, host === this.streams.labHost ? () => own.disconnect() : () => undefined),
    );
    // Keyed by the host OrderStreams opens on (the lab's loop reads it on a connection of its own).
    const byHost = new Map(this.streams.hosts().map((host, i) => [host, this.loops[i]]));
    this.unwatch = this.streams.onOpened((host) => byHost.get(host)?.wake());
    this.running = this.loops.map((loop) => loop.run());
  }

  /** Stops reading; a batch being written is finished first. Entries delivered and not written stay pending for a writer. */
  async stop(): Promise<void> {
    const loops = this.loops;
    this.loops = [];
    this.unwatch();
    for (const loop of loops) {
      loop.stopped = true;
      // Out of an idle pause at once: stopping does not wait it out.
      loop.wake();
    }
    await Promise.all(this.running);
    // Closed after the loops: a batch's ack must not be cut off after its INSERT (it would be claimed and written again, harmlessly, but late).
    for (const loop of loops) loop.close();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}

/** One host's reading and writing: its own pending entries first, then claimed ones, then new ones. */
class HostLoop {
  stopped = false;
  /** After a failed batch its entries are still this writer's: read again (id 0) before anything new. */
  private ownPending = true;
  private lastClaim = 0;
  /** The pause after the next round that finds nothing. */
  private idlePauseMs = READ_BLOCK_MS;
  private endPause: (() => void) | null = null;

  constructor(
    private readonly host: OrderStreamHost,
    private readonly consumer: string,
    private readonly streams: OrderStreams,
    private readonly batches: OrderBatches,
    private readonly settingsStore: ProductSettingsStore,
    readonly close: () => void,
  ) {}

  async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const batch = await this.next();
        if (batch.size) {
          this.idlePauseMs = READ_BLOCK_MS;
          await this.write(batch);
        }
      } catch (error) {
        if (this.stopped) return;
        this.ownPending = true;
        reportError(error as Error);
        await sleep(RETRY_MS);
      }
    }
  }

  /** Ends an idle pause now, and the next one starts short again: a stream of the host was opened (or the writer stops). */
  wake(): void {
    this.idlePauseMs = READ_BLOCK_MS;
    this.endPause?.();
  }

  /** After a round that found nothing: a pause twice the last, up to IDLE_PAUSE_MAX_MS, unless woken. */
  private idle(): Promise<void> {
    // Stopped during the round: its wake came before this pause.
    if (this.stopped) return Promise.resolve();
    const pauseMs = this.idlePauseMs;
    this.idlePauseMs = Math.min(pauseMs * 2, IDLE_PAUSE_MAX_MS);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.endPause?.(), pauseMs);
      this.endPause = () => {
        clearTimeout(timer);
        this.endPause = null;
        resolve();
      };
    });
  }

  /** The next batch, by stream: this writer's own unacknowledged entries, else idle ones claimed, else new ones. */
  private async next(): Promise<Map<string, Entries>> {
    const streams = await this.host.redis.smembers(this.streams.registry);
    if (!streams.length) {
      await this.idle();
      return new Map();
    }
    if (this.ownPending) {
      const own = await this.read(streams, '0', 0);
      if (own.size) return own;
      this.ownPending = false;
    }
    if (Date.now() - this.lastClaim >= CLAIM_EVERY_MS) {
      this.lastClaim = Date.now();
      const claimed = await this.claim(streams);
      if (claimed.size) return claimed;
      await this.dropFinished(streams);
    }
    return this.read(streams, '>', READ_BLOCK_MS);
  }

  /**
   * XREADGROUP: '>' for entries never delivered, '0' for this writer's pending ones; every stream in one
   * command where the host allows it, else one command per stream, STREAMS_AT_ONCE at a time.
   */
  private async read(streams: string[], from: '>' | '0', blockMs: number): Promise<Map<string, Entries>> {
    if (this.host.readsTogether) {
      try {
        return await this.readGroup(streams, from, blockMs);
      } catch (error) {
        if (!isGone(error)) throw error;
        await this.unlistMissing(streams);
        return new Map();
      }
    }
    const batch = await this.eachStream(streams, (stream) => this.readGroup([stream], from, 0));
    if (!batch.size && blockMs) await this.idle();
    return batch;
  }

  /**
   * One command per stream, STREAMS_AT_ONCE at a time, their entries in one batch. A stream gone (dropped
   * since the list was read, or Redis lost it) is unlisted and the others' entries kept; any other failure
   * fails the round, and what was read stays this writer's pending entries, read again (id 0) next.
   */
  private async eachStream(streams: string[], command: (stream: string) => Promise<Map<string, Entries>>): Promise<Map<string, Entries>> {
    const answers = await settledAtMost(STREAMS_AT_ONCE, streams, command);
    const failure = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected' && !isGone(answer.reason));
    if (failure) throw failure.reason;
    const gone = streams.filter((_, i) => answers[i].status === 'rejected');
    if (gone.length) await this.unlistMissing(gone);
    return new Map(answers.flatMap((answer) => (answer.status === 'fulfilled' ? [...answer.value] : [])));
  }

  private async readGroup(streams: string[], from: '>' | '0', blockMs: number): Promise<Map<string, Entries>> {
    const { redis } = this.host;
    const ids = streams.map(() => from);
    const answer = (
      blockMs
        ? await redis.xreadgroup('GROUP', ORDER_STREAM_GROUP, this.consumer, 'COUNT', ORDER_STREAM_BATCH, 'BLOCK', blockMs, 'STREAMS', ...streams, ...ids)
        : await redis.xreadgroup('GROUP', ORDER_STREAM_GROUP, this.consumer, 'COUNT', ORDER_STREAM_BATCH, 'STREAMS', ...streams, ...ids)
    ) as [string, Entries][] | null;
    return new Map((answer ?? []).filter(([, entries]) => entries.length).map(([stream, entries]) => [stream, entries]));
  }

  private claim(streams: string[]): Promise<Map<string, Entries>> {
    return this.eachStream(streams, async (stream) => {
      const [, entries] = (await this.host.redis.xautoclaim(stream, ORDER_STREAM_GROUP, this.consumer, ORDER_STREAM_CLAIM_IDLE_MS, '0-0', 'COUNT', ORDER_STREAM_BATCH)) as [string, Entries, string[]];
      return new Map(entries.length ? [[stream, entries]] : []);
    });
  }

  /** One INSERT for the whole batch; then, committed, each stream's entries acknowledged and deleted together. */
  private async write(batch: Map<string, Entries>): Promise<void> {
    // An entry deleted while still pending comes without fields: nothing to write, only to acknowledge.
    const orders: QueuedOrder[] = [...batch.values()].flatMap((entries) => entries.flatMap(([id, fields]) => (fields ? [decodeEntry(id, fields)] : [])));
    if (orders.length) await this.batches.writeBatch(orders);
    // A transaction may only span one slot on a Cluster: one per stream there, one for all on one Redis.
    const transactions = this.host.readsTogether ? [[...batch]] : [...batch].map((entry) => [entry]);
    await Promise.all(
      transactions.map((streams) => {
        const done = this.host.redis.multi();
        for (const [stream, entries] of streams) {
          const ids = entries.map(([id]) => id);
          done.xack(stream, ORDER_STREAM_GROUP, ...ids).xdel(stream, ...ids);
        }
        return done.exec();
      }),
    );
  }

  /**
   * Drops the written-out streams of runs that are over (their product reset since): the lab's runs each
   * use a product of their own, so no later reset of the same product would, and every writer would
   * read a growing list of empty streams.
   */
  private async dropFinished(streams: string[]): Promise<void> {
    for (const stream of streams) {
      const run = OrderStreams.runOf(stream);
      if (!run) continue;
      const current = await this.settingsStore.fresh(run.productId).then(
        (settings) => settings.runId,
        () => null,
      );
      if (current !== null && current !== run.runId) await this.streams.dropIfWritten(stream, this.host);
    }
  }

  private async unlistMissing(streams: string[]): Promise<void> {
    for (const stream of streams) if (!(await this.host.redis.exists(stream))) await this.host.redis.srem(this.streams.registry, stream);
  }
}

const reportError = reportQueueErrors('order stream writer');

/** A listed stream is gone: its group with it (XREADGROUP, XAUTOCLAIM answer NOGROUP). */
function isGone(error: unknown): boolean {
  return (error as Error).message.startsWith('NOGROUP');
}

/** `work` on every item, at most `limit` at a time; the outcomes in the items' order. */
async function settledAtMost<T, R>(limit: number, items: readonly T[], work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const outcomes: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      outcomes[i] = await work(items[i]).then(
        (value) => ({ status: 'fulfilled', value }),
        (reason: unknown) => ({ status: 'rejected', reason }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcomes;
}
