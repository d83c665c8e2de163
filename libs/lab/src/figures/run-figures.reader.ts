import { Inject, Injectable } from '@nestjs/common';
import { ORDER_OUTCOMES, type FaultEvent, type LockEvent, type OutcomeCounts, type SequenceStep, type TimelinePoint } from '@oversell/contracts';
import { RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type * as hdr from 'hdr-histogram-js';
import { decodeHistogram, newLatencyHistogram, newShortLivedHistogram, summarize } from './latency-histogram';
import type { Holding } from './lock-history';
import type { RemainingSamples } from './remaining-samples';
import { LOCK_EVENTS_DROPPED, RUN_MOMENTS, RunFigureKeys } from '../redis-keys';

export interface RunFigures {
  counts: OutcomeCounts;
  /** Units sold as the instances counted them (replays excluded). */
  units: number;
  conflicts: number;
  /** Lock holdings the instances did not keep (beyond their cap): the holdings read are partial when above 0. */
  lockEventsDropped: number;
  /** Per epoch second: attempts, units and the latency histogram merged over instances. */
  seconds: Map<number, { attempts: number; units: number; histogram: hdr.Histogram }>;
  /** Attempts per instance, from the instances' own histograms. */
  attemptsByInstance: Map<string, number>;
  /** When the run's requests came and went (epoch ms, over every instance); none before its first answer. */
  moments: RunMoments;
}

export interface RunMoments {
  /** The first request's arrival. */
  firstRequestAt?: number;
  /** The last answer. */
  lastAnswerAt?: number;
  /** The last answer that sold units. */
  lastSaleAt?: number;
}

/** Reads back what the instances pooled in Redis for one run (see OrderFigures). */
@Injectable()
export class RunFiguresReader {
  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  private keys(runId: string): RunFigureKeys {
    return new RunFigureKeys(this.options.keyPrefix, runId);
  }

  /** The run's counters so far: cheap, read every second while the run goes. */
  async counts(runId: string): Promise<{ counts: OutcomeCounts; units: number; conflicts: number; lockEventsDropped: number }> {
    const counts = await this.connections.control.hgetall(this.keys(runId).counts);
    const outcomeCounts = { attempts: Number(counts.attempts ?? 0) } as OutcomeCounts;
    for (const outcome of ORDER_OUTCOMES) outcomeCounts[outcome] = Number(counts[outcome] ?? 0);
    return { counts: outcomeCounts, units: Number(counts.units ?? 0), conflicts: Number(counts.conflicts ?? 0), lockEventsDropped: Number(counts[LOCK_EVENTS_DROPPED] ?? 0) };
  }

  /** One second's attempts, units and p99 over all instances, for the live progress. */
  async second(runId: string, second: number): Promise<{ attempts: number; units: number; p99: number }> {
    const keys = this.keys(runId);
    const redis = this.connections.control;
    const [attempts, units, encoded] = await Promise.all([redis.hget(keys.seconds, `${second}:attempts`), redis.hget(keys.seconds, `${second}:units`), redis.hvals(keys.histogram(second))]);
    const merged = newShortLivedHistogram();
    for (const e of encoded) merged.add(decodeHistogram(e));
    return { attempts: Number(attempts ?? 0), units: Number(units ?? 0), p99: summarize(merged).p99 };
  }

  /** Everything, for the run's result once every instance has flushed. */
  async read(runId: string): Promise<RunFigures> {
    const redis = this.connections.control;
    const keys = this.keys(runId);
    const [{ counts: outcomeCounts, units, conflicts, lockEventsDropped }, seconds, histogramSeconds, moments] = await Promise.all([
      this.counts(runId),
      redis.hgetall(keys.seconds),
      redis.smembers(keys.histogramSeconds),
      redis.hgetall(keys.moments),
    ]);

    const perSecond: RunFigures['seconds'] = new Map();
    const attemptsByInstance = new Map<string, number>();
    const histograms = await Promise.all(histogramSeconds.map((s) => redis.hgetall(keys.histogram(Number(s)))));
    histogramSeconds.forEach((s, i) => {
      const second = Number(s);
      const merged = newLatencyHistogram();
      for (const [instance, encoded] of Object.entries(histograms[i])) {
        const histogram = decodeHistogram(encoded);
        merged.add(histogram);
        attemptsByInstance.set(instance, (attemptsByInstance.get(instance) ?? 0) + histogram.totalCount);
      }
      perSecond.set(second, { attempts: Number(seconds[`${second}:attempts`] ?? 0), units: Number(seconds[`${second}:units`] ?? 0), histogram: merged });
    });
    const moment = (field: string) => (moments[field] === undefined ? undefined : Number(moments[field]));
    return {
      counts: outcomeCounts,
      units,
      conflicts,
      lockEventsDropped,
      seconds: perSecond,
      attemptsByInstance,
      moments: { firstRequestAt: moment(RUN_MOMENTS.firstRequestAt), lastAnswerAt: moment(RUN_MOMENTS.lastAnswerAt), lastSaleAt: moment(RUN_MOMENTS.lastSaleAt) },
    };
  }

  /** Figure batches applied per instance so far: grows while an instance answers the run's requests. */
  async batchesByInstance(runId: string): Promise<Map<string, number>> {
    const batches = await this.connections.control.hgetall(this.keys(runId).batchesByInstance);
    return new Map(Object.entries(batches).map(([instance, n]) => [instance, Number(n)]));
  }

  /** Lock events from index `from` on (the list only grows during a run). */
  lockEvents(runId: string, from = 0, max = Number.MAX_SAFE_INTEGER): Promise<LockEvent[]> {
    return this.list<LockEvent>(this.keys(runId).lockEvents, from, max);
  }

  /**
   * Every lock event of the run, `pageSize` at a time, in the order they were pushed: each page is parsed
   * and handed over before the next is read, so its JSON need not all be alive at once.
   */
  async readLockEvents(runId: string, visit: (page: LockEvent[]) => void, pageSize = 5000): Promise<void> {
    for (let from = 0; ; from += pageSize) {
      const page = await this.lockEvents(runId, from, pageSize);
      if (page.length) visit(page);
      if (page.length < pageSize) return;
    }
  }

  /** The traced orders' steps (actor: the request id), at most TRACED_ORDERS × 12 per instance; sorted by time by their reader. */
  traceSteps(runId: string): Promise<SequenceStep[]> {
    return this.list<SequenceStep>(this.keys(runId).traceSteps, 0, Number.MAX_SAFE_INTEGER);
  }

  /** Fault events from index `from` on, in the order they were recorded. */
  faultEvents(runId: string, from = 0): Promise<FaultEvent[]> {
    return this.list<FaultEvent>(this.keys(runId).faultEvents, from, Number.MAX_SAFE_INTEGER);
  }

  private async list<T>(key: string, from: number, max: number): Promise<T[]> {
    const end = max === Number.MAX_SAFE_INTEGER ? -1 : from + max - 1;
    const raw = await this.connections.control.lrange(key, from, end);
    return raw.map((json) => JSON.parse(json) as T);
  }
}

/** Merges every second's histogram into the run's latency summary. */
export function overallLatency(figures: RunFigures) {
  const all = newShortLivedHistogram();
  for (const { histogram } of figures.seconds.values()) all.add(histogram);
  return summarize(all);
}

/**
 * The per-second timeline from the load's first second on: attempts and units from the counters,
 * p99 from the merged histogram, remaining stock as sampled, lock holders from the holdings.
 */
export function timeline(figures: RunFigures, startSecond: number, remaining: RemainingSamples, holdings: readonly Holding[]): TimelinePoint[] {
  const holders = holdersBySecond(holdings);
  const seconds = [...figures.seconds.keys(), ...remaining.seconds()].filter((s) => s >= startSecond);
  if (!seconds.length) return [];
  const last = Math.max(...seconds);
  const points: TimelinePoint[] = [];
  let soldTotal = 0;
  let left = 0;
  for (let second = startSecond; second <= last; second++) {
    const bucket = figures.seconds.get(second);
    soldTotal += bucket?.units ?? 0;
    left = remaining.atEndOf(second) ?? left;
    points.push({
      t: second - startSecond,
      attempts: bucket?.attempts ?? 0,
      sold: bucket?.units ?? 0,
      soldTotal,
      remaining: left,
      p99: bucket ? summarize(bucket.histogram).p99 : 0,
      lockHolders: holders.get(second)?.size ?? 0,
    });
  }
  return points;
}

/** Distinct lock holders (requests) that held a lock at some moment of each epoch second. */
export function holdersBySecond(holdings: readonly Holding[]): Map<number, Set<string>> {
  const holders = new Map<number, Set<string>>();
  for (const event of holdings) {
    for (let s = Math.floor(event.acquiredAt / 1000); s <= Math.floor(event.releasedAt / 1000); s++) {
      let set = holders.get(s);
      if (!set) holders.set(s, (set = new Set()));
      set.add(event.requestId);
    }
  }
  return holders;
}
