import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { TRACE_WINDOW, type LockEvent, type OrderOutcome, type ProductRunSettings, type RunTarget, type StrategyName } from '@oversell/contracts';
import { loadLuaScript, useScripts } from '@oversell/locks';
import { preciseNow } from '@oversell/locks';
import { LockEvents, OrderTraces, RedisConnections, STOCK_OPTIONS, type StockOptions, type TraceNote, type TraceStep } from '@oversell/stock';
import type * as hdr from 'hdr-histogram-js';
import type { ChainableCommander, default as Redis, Result } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { LOCK_EVENTS_DROPPED, RUN_FIGURES_TTL_SECONDS, RUN_MOMENTS, RunFigureKeys } from '../redis-keys';
import { answerFlushRequests } from './flush-protocol';
import { encodeHistogram, newShortLivedHistogram } from './latency-histogram';
import { MetricsService } from './metrics.service';

const APPLY_RUN_FIGURES = loadLuaScript(__dirname, 'apply-run-figures-7.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    applyRunFiguresV1(...keysThenArgs: (string | number)[]): Result<number, Context>;
  }
}

const FLUSH_EVERY_MS = 250;
/** Lock events kept per run and instance; beyond it the timeline is cut (and says how much), the counts are not. */
const MAX_LOCK_EVENTS_PER_RUN = 100_000;
/** Overrides the cap (tests lower it). */
export const MAX_LOCK_EVENTS = Symbol('MAX_LOCK_EVENTS');
/**
 * The trace's window: the first orders of each run on this instance (TRACED_ORDERS, 0 for none), each
 * traced up to STEPS_PER_ORDER steps. The first double sale is what the trace explains, so the window is
 * the run's start, not its end: what an order beyond it does is not noted at all.
 */
export const TRACED_ORDERS = Symbol('TRACED_ORDERS');
/** A lock's section notes 6 to 11 (requested, granted, up to 3 renewals, GET, SET, INSERT, released; a lease lost or run out; a refusal); an optimistic order 2 a round (GET, a failed UPDATE). */
const STEPS_PER_ORDER = 12;

/** The increments and holdings gathered since the last flush: applied at most once, under their id. */
interface FigureBatch {
  id: string;
  counts: Map<string, number>;
  seconds: Map<string, number>;
  /** RUN_MOMENTS fields: the lowest or highest value seen here, which Redis keeps if it is lower or higher still. */
  moments: Map<string, number>;
  lockEvents: LockEvent[];
  /** The steps' JSON, one SequenceStep a line, as the run's trace list keeps each. */
  traceSteps: string;
}

/**
 * A step as the hot path keeps it: its JSON is written at the flush, all of a batch's in one loop, so the
 * order pays for a small object and its time only (and the collector copies no strings till the flush).
 */
interface TracedStep {
  /** The order's part of the JSON (`{"actor":…,"instance":…,`), written once per order. */
  head: string;
  at: number | undefined;
  step: TraceNote;
}

interface RunBuffer {
  strategy: RunTarget;
  counts: Map<string, number>;
  seconds: Map<string, number>;
  moments: Map<string, number>;
  lockEvents: LockEvent[];
  /** Lock events taken into a batch so far, against the cap. */
  lockEventsKept: number;
  traceSteps: TracedStep[];
  /** The orders let into the trace's window so far; once it is full, the run's later orders are not traced. */
  tracedOrders: number;
  /** Batches not yet known to be applied: re-sent as they are, never merged, so a repeat is recognised. */
  unsent: FigureBatch[];
  /** This instance's latency histogram for each epoch second, cumulative; re-sent while it changes. */
  histograms: Map<number, hdr.Histogram>;
  dirtySeconds: Set<number>;
}

/** Which run a request belongs to, and under which strategy it ran. */
export interface RunRef {
  runId: string;
  strategy: RunTarget;
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
  private stopAnswering?: () => Promise<void>;
  private timer?: NodeJS.Timeout;
  private unsubscribeLocks?: () => void;
  private unsubscribeTraces?: () => void;
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private drainWaiters: (() => void)[] = [];
  /** The current second's fields in a run's seconds, named once a second instead of twice an order. */
  private secondFields = secondFieldsOf(0);

  constructor(
    connections: RedisConnections,
    private readonly lockEvents: LockEvents,
    private readonly traces: OrderTraces,
    private readonly metrics: MetricsService,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
    @Optional() @Inject(MAX_LOCK_EVENTS) private readonly maxLockEvents: number = MAX_LOCK_EVENTS_PER_RUN,
    @Optional() @Inject(TRACED_ORDERS) private readonly tracedOrders: number = TRACE_WINDOW.defaultOrders,
  ) {
    this.redis = useScripts(connections.control, [APPLY_RUN_FIGURES]);
  }

  async onModuleInit(): Promise<void> {
    this.unsubscribeLocks = this.lockEvents.subscribe((runId, strategy, event) => this.recordLock(runId, strategy, event));
    if (this.tracedOrders > 0) this.unsubscribeTraces = this.traces.listen((settings, requestId) => this.traceOrder(settings, requestId));
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
    // At a run's end: let the in-flight orders finish, push the figures, and tell the worker whether both worked.
    this.stopAnswering = await answerFlushRequests(this.redis, { keyPrefix: this.options.keyPrefix, instanceId: this.options.instanceId }, async (request) => ({
      drained: await this.drained(request.drainTimeoutMs),
      flushed: await this.flush(),
    }));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribeLocks?.();
    this.unsubscribeTraces?.();
    await this.flush().catch(() => undefined);
    await this.stopAnswering?.();
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
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (this.secondFields.second !== second) this.secondFields = secondFieldsOf(second);
    const fields = this.secondFields;
    // Where the run's phases begin and end, to the ms: whole seconds would misstate a sale over in two.
    keep(buffer.moments, RUN_MOMENTS.firstRequestAt, now - latencyMs);
    keep(buffer.moments, RUN_MOMENTS.lastAnswerAt, now);
    if (units) keep(buffer.moments, RUN_MOMENTS.lastSaleAt, now);
    add(buffer.counts, 'attempts', 1);
    add(buffer.counts, outcome, 1);
    if (units) add(buffer.counts, 'units', units);
    if (conflicts) add(buffer.counts, 'conflicts', conflicts);
    add(buffer.seconds, fields.attempts, 1);
    if (units) add(buffer.seconds, fields.units, units);
    let histogram = buffer.histograms.get(second);
    if (!histogram) {
      histogram = newShortLivedHistogram();
      buffer.histograms.set(second, histogram);
    }
    histogram.recordValue(Math.max(1, Math.round(latencyMs * 1000)));
    buffer.dirtySeconds.add(second);
  }

  private recordLock(runId: string, strategy: StrategyName, event: LockEvent): void {
    this.metrics.lock(strategy, event);
    const buffer = this.buffer(runId, strategy);
    if (buffer.lockEventsKept < this.maxLockEvents) {
      buffer.lockEvents.push(event);
      buffer.lockEventsKept++;
    } else {
      // Counted (exactly once, with the other counters), so the reconciliation can say its overlap check is partial.
      add(buffer.counts, LOCK_EVENTS_DROPPED, 1);
    }
  }

  /**
   * Lets an order into the run's trace window, if there is room: asked once per order, so the order's
   * steps then need no look-up of it. Each step is kept with the order, this instance and, unless the
   * step has it, now: the JSON the run's trace list holds is written at the flush.
   */
  private traceOrder(settings: ProductRunSettings, requestId: string): TraceStep | null {
    if (this.buffer(settings.runId, settings.strategy).tracedOrders++ >= this.tracedOrders) return null;
    const head = `{"actor":${JSON.stringify(requestId)},"instance":${JSON.stringify(this.options.instanceId)},`;
    let noted = 0;
    // The run's buffer looked up at each step: a run idle for a while is forgotten here and begun again.
    return (step) => {
      if (noted++ < STEPS_PER_ORDER) this.buffer(settings.runId, settings.strategy).traceSteps.push({ head, at: 'at' in step ? step.at : preciseNow(), step });
    };
  }

  private buffer(runId: string, strategy: RunTarget): RunBuffer {
    let run = this.runs.get(runId);
    if (!run) {
      run = { strategy, counts: new Map(), seconds: new Map(), moments: new Map(), lockEvents: [], lockEventsKept: 0, traceSteps: [], tracedOrders: 0, unsent: [], histograms: new Map(), dirtySeconds: new Set() };
      this.runs.set(runId, run);
    }
    return run;
  }

  /** Sends what changed since the last flush; flushes never overlap. True if it all arrived. */
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
      if (run.counts.size || run.seconds.size || run.moments.size || run.lockEvents.length || run.traceSteps.length) {
        run.unsent.push({ id: randomUUID(), counts: run.counts, seconds: run.seconds, moments: run.moments, lockEvents: run.lockEvents, traceSteps: run.traceSteps.map(stepJson).join('\n') });
        run.counts = new Map();
        run.seconds = new Map();
        run.moments = new Map();
        run.lockEvents = [];
        run.traceSteps = [];
      }
      // Taken out while in flight (what arrives meanwhile marks them again); put back on failure.
      const dirtySeconds = run.dirtySeconds;
      run.dirtySeconds = new Set();
      if (!run.unsent.length && !dirtySeconds.size) {
        // Nothing new for two seconds: the run is over here; forget it.
        if (![...run.histograms.keys()].some((s) => s >= nowSecond - 2)) this.runs.delete(runId);
        continue;
      }
      const keys = new RunFigureKeys(this.options.keyPrefix, runId);
      const pipeline = this.redis.pipeline();
      for (const batch of run.unsent) this.applyOnce(pipeline, keys, batch);
      // Each instance's histogram of a second is written whole, so sending it again changes nothing.
      for (const second of dirtySeconds) {
        pipeline.hset(keys.histogram(second), this.options.instanceId, encodeHistogram(run.histograms.get(second)!));
        pipeline.sadd(keys.histogramSeconds, second);
        pipeline.expire(keys.histogram(second), RUN_FIGURES_TTL_SECONDS);
      }
      if (dirtySeconds.size) pipeline.expire(keys.histogramSeconds, RUN_FIGURES_TTL_SECONDS);
      const results = await pipeline.exec().catch((error: Error) => [[error, null]] as [Error | null, unknown][]);
      const failed = (results ?? []).find(([error]) => error)?.[0];
      if (failed) {
        for (const second of dirtySeconds) run.dirtySeconds.add(second);
        throw failed;
      }
      run.unsent = [];
      for (const second of run.histograms.keys()) if (second < nowSecond - 2 && !run.dirtySeconds.has(second)) run.histograms.delete(second);
    }
  }

  private applyOnce(pipeline: ChainableCommander, keys: RunFigureKeys, batch: FigureBatch): void {
    pipeline.applyRunFiguresV1(
      keys.appliedBatches,
      keys.counts,
      keys.seconds,
      keys.lockEvents,
      keys.batchesByInstance,
      keys.moments,
      keys.traceSteps,
      batch.id,
      this.options.instanceId,
      RUN_FIGURES_TTL_SECONDS,
      batch.counts.size,
      batch.seconds.size,
      batch.moments.size,
      batch.lockEvents.length,
      ...[...batch.counts, ...batch.seconds, ...batch.moments].flat(),
      ...batch.lockEvents.map((e) => JSON.stringify(e)),
      // One argument for all the steps: a few thousand arguments cost the client more to write than their bytes.
      batch.traceSteps,
    );
  }
}

/**
 * JSON.stringify({ actor, instance, at, ...step }) to the byte: the order's part written once per order
 * (`{"actor":…,"instance":…,`), the step's in one shape whatever its emitter gave, the keys in the order
 * they give them (a time of undefined, like a value or note of undefined, is left out).
 */
function stepJson({ head, at, step: { target, action, value, note } }: TracedStep): string {
  return head + JSON.stringify({ at, target, action, value, note }).slice(1);
}

function secondFieldsOf(second: number): { second: number; attempts: string; units: string } {
  return { second, attempts: `${second}:attempts`, units: `${second}:units` };
}

function add(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** Keeps the lower value for a `min:` moment, the higher for a `max:` one. */
function keep(moments: Map<string, number>, field: string, value: number): void {
  const kept = moments.get(field);
  if (kept === undefined || (field.startsWith('min:') ? value < kept : value > kept)) moments.set(field, value);
}
