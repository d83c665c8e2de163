import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { LockEvent, OrderOutcome, RunTarget, StrategyName } from '@oversell/contracts';
import { LockEvents, RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type * as hdr from 'hdr-histogram-js';
import type Redis from 'ioredis';
import { MetricsService } from '../metrics/metrics.service';
import { encodeHistogram, newLatencyHistogram } from './latency-histogram';
import { RUN_FIGURES_TTL_SECONDS, RunFigureKeys } from './run-figure-keys';

const FLUSH_EVERY_MS = 250;
/** Lock events kept per run and instance; beyond it the timeline is cut, the counts are not. */
const MAX_LOCK_EVENTS_PER_RUN = 100_000;
export const flushRequestsChannel = (prefix: string) => `${prefix}:run-figures:flush`;
export const flushAckChannel = (prefix: string, runId: string) => `${prefix}:run:{${runId}}:flush-acks`;

interface RunBuffer {
  strategy: RunTarget;
  counts: Map<string, number>;
  seconds: Map<string, number>;
  /** This instance's latency histogram for each epoch second, cumulative; re-sent while it changes. */
  histograms: Map<number, hdr.Histogram>;
  dirtySeconds: Set<number>;
  lockEvents: LockEvent[];
  lockEventsSent: number;
}

/** Which run a request belongs to, and under which strategy it ran. */
export interface RunRef {
  runId: string;
  strategy: RunTarget;
}

export interface FlushRequest {
  runId: string;
  nonce: string;
  /** How long an order of this run can take at most; the worker derives it from the run's settings. */
  drainTimeoutMs: number;
}

export interface FlushAck {
  instance: string;
  nonce: string;
  /** Every in-flight order finished within drainTimeoutMs. */
  drained: boolean;
  /** The figures reached Redis. */
  flushed: boolean;
}

/**
 * Counts every order this instance answers, by run, and pools the counts in Redis a few times a
 * second (and at once when the run worker asks), so a run's figures are the server's own, summed
 * over all instances, never the load tool's.
 */
@Injectable()
export class OrderFigures implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OrderFigures.name);
  private readonly runs = new Map<string, RunBuffer>();
  private readonly redis: Redis;
  private subscriber?: Redis;
  private timer?: NodeJS.Timeout;
  private unsubscribeLocks?: () => void;
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private drainWaiters: (() => void)[] = [];

  constructor(
    connections: RedisConnections,
    private readonly lockEvents: LockEvents,
    private readonly metrics: MetricsService,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {
    this.redis = connections.commands;
  }

  async onModuleInit(): Promise<void> {
    this.unsubscribeLocks = this.lockEvents.subscribe((runId, strategy, event) => this.recordLock(runId, strategy, event));
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
    this.subscriber = this.redis.duplicate();
    await this.subscriber.subscribe(flushRequestsChannel(this.options.keyPrefix));
    this.subscriber.on('message', (_channel, message: string) => void this.answerFlushRequest(JSON.parse(message) as FlushRequest));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribeLocks?.();
    await this.flush().catch(() => undefined);
    await this.subscriber?.quit().catch(() => undefined);
  }

  /** Runs one order (or no-op) request, counting it as in flight until it is answered. */
  async track<T>(handle: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await handle();
    } finally {
      if (--this.inFlight === 0) for (const wake of this.drainWaiters.splice(0)) wake();
    }
  }

  /**
   * Resolves when no request is in flight here, or after timeoutMs. The load tool has stopped when the
   * worker asks, but orders queued behind a lock may still be writing; counting before they finish
   * would report stock taken without its order.
   */
  private drained(timeoutMs: number): Promise<boolean> {
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.drainWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Counts one answered request of a run (the no-op ceiling's too, under strategy 'noop'). */
  record(run: RunRef, outcome: OrderOutcome, latencyMs: number, units = 0, conflicts = 0): void {
    this.metrics.order(run.strategy, outcome, latencyMs);
    const buffer = this.buffer(run.runId, run.strategy);
    const second = Math.floor(Date.now() / 1000);
    add(buffer.counts, 'attempts', 1);
    add(buffer.counts, outcome, 1);
    if (units) add(buffer.counts, 'units', units);
    if (conflicts) add(buffer.counts, 'conflicts', conflicts);
    add(buffer.seconds, `${second}:attempts`, 1);
    if (units) add(buffer.seconds, `${second}:units`, units);
    let histogram = buffer.histograms.get(second);
    if (!histogram) {
      histogram = newLatencyHistogram();
      buffer.histograms.set(second, histogram);
    }
    histogram.recordValue(Math.max(1, Math.round(latencyMs * 1000)));
    buffer.dirtySeconds.add(second);
  }

  private recordLock(runId: string, strategy: StrategyName, event: LockEvent): void {
    this.metrics.lock(strategy, event);
    const buffer = this.buffer(runId, strategy);
    if (buffer.lockEventsSent + buffer.lockEvents.length < MAX_LOCK_EVENTS_PER_RUN) buffer.lockEvents.push(event);
  }

  private buffer(runId: string, strategy: RunTarget): RunBuffer {
    let run = this.runs.get(runId);
    if (!run) {
      run = { strategy, counts: new Map(), seconds: new Map(), histograms: new Map(), dirtySeconds: new Set(), lockEvents: [], lockEventsSent: 0 };
      this.runs.set(runId, run);
    }
    return run;
  }

  /** Sends what changed since the last flush; flushes never overlap, so increments are sent once. True if it all arrived. */
  flush(): Promise<boolean> {
    const done = this.flushing.then(() => this.flushNow()).then(
      () => true,
      (error) => {
        this.logger.warn(`flushing run figures failed (kept for the next flush): ${error}`);
        return false;
      },
    );
    this.flushing = done.then(() => undefined);
    return done;
  }

  private async flushNow(): Promise<void> {
    const nowSecond = Math.floor(Date.now() / 1000);
    for (const [runId, run] of this.runs) {
      const keys = new RunFigureKeys(this.options.keyPrefix, runId);
      const pipeline = this.redis.pipeline();
      const touched = new Set<string>();
      for (const [field, n] of run.counts) pipeline.hincrby(keys.counts, field, n);
      if (run.counts.size) touched.add(keys.counts);
      for (const [field, n] of run.seconds) pipeline.hincrby(keys.seconds, field, n);
      if (run.seconds.size) touched.add(keys.seconds);
      for (const second of run.dirtySeconds) {
        pipeline.hset(keys.histogram(second), this.options.instanceId, encodeHistogram(run.histograms.get(second)!));
        pipeline.sadd(keys.histogramSeconds, second);
        touched.add(keys.histogram(second)).add(keys.histogramSeconds);
      }
      if (run.lockEvents.length) {
        pipeline.rpush(keys.lockEvents, ...run.lockEvents.map((e) => JSON.stringify(e)));
        touched.add(keys.lockEvents);
      }
      if (touched.size === 0) {
        // Nothing new for two seconds: the run is over here; forget it.
        if (![...run.histograms.keys()].some((s) => s >= nowSecond - 2)) this.runs.delete(runId);
        continue;
      }
      for (const key of touched) pipeline.expire(key, RUN_FIGURES_TTL_SECONDS);
      // Taken out of the buffer while in flight: what arrives meanwhile goes to fresh maps, and on
      // failure the taken figures are merged back for the next flush instead of being lost.
      const sent = { counts: run.counts, seconds: run.seconds, dirtySeconds: run.dirtySeconds, lockEvents: run.lockEvents };
      run.counts = new Map();
      run.seconds = new Map();
      run.dirtySeconds = new Set();
      run.lockEvents = [];
      const results = await pipeline.exec().catch((error: Error) => [[error, null]] as [Error | null, unknown][]);
      const failed = (results ?? []).find(([error]) => error)?.[0];
      if (failed) {
        for (const [field, n] of sent.counts) add(run.counts, field, n);
        for (const [field, n] of sent.seconds) add(run.seconds, field, n);
        for (const second of sent.dirtySeconds) run.dirtySeconds.add(second);
        run.lockEvents.unshift(...sent.lockEvents);
        throw failed;
      }
      run.lockEventsSent += sent.lockEvents.length;
      for (const second of run.histograms.keys()) if (second < nowSecond - 2 && !run.dirtySeconds.has(second)) run.histograms.delete(second);
    }
  }

  /**
   * Lets this instance's in-flight orders finish, pushes its figures, and says whether both worked:
   * the worker fails the run rather than reconcile with orders still being written or figures missing.
   */
  private async answerFlushRequest(request: FlushRequest): Promise<void> {
    const drained = await this.drained(request.drainTimeoutMs);
    const flushed = await this.flush();
    const ack: FlushAck = { instance: this.options.instanceId, nonce: request.nonce, drained, flushed };
    await this.redis.publish(flushAckChannel(this.options.keyPrefix, request.runId), JSON.stringify(ack));
  }
}

function add(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}
