import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { NOOP_TARGET, STRATEGY_NAMES, type LockEvent, type Reconciliation, type RunResult, type StrategyName, type TimelinePoint } from '@oversell/contracts';
import { findK6, forkLoad, runK6Load, type LoadOptions, type LoadSummary } from '@oversell/loadtests';
import { InventoryService, ProductResetService, RedisConnections, STOCK_OPTIONS, STOCK_STRATEGIES, type StockOptions, type StrategyRegistry } from '@oversell/stock';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { flushAckChannel, flushRequestsChannel, type FlushAck, type FlushRequest } from './order-figures';
import { InstanceRegistry, PeakMemory, type InstanceBeat } from './instance-registry';
import { reconcile } from './reconciliation';
import { RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { holdersBySecond, overallLatency, RunFiguresReader, timeline } from './run-figures.reader';
import { toView } from './runs.service';

const TICK_MS = 1000;
/** Time for an instance to answer after its drain: the flush itself and the message. */
const FLUSH_ACK_MARGIN_MS = 10_000;
/** Beyond the lock wait and the business time: the writes of an order under load. */
const DRAIN_MARGIN_MS = 15_000;
/** Lock events streamed to the dashboard per second, and kept with the stored result. */
const LOCK_EVENTS_PER_TICK = 2000;
const LOCK_EVENTS_STORED = 20_000;
const NO_RECONCILIATION: Reconciliation = { initialStock: 0, remaining: 0, sold: 0, orders: 0, oversold: 0, lost: 0, exclusionViolations: 0, storesAgree: true };

/**
 * Executes one run: reset the product under the run's id, drive the load at every live instance,
 * stream progress each second, then gather the instances' own figures and reconcile the stores.
 */
@Injectable()
export class RunExecutor {
  private readonly logger = new Logger(RunExecutor.name);

  constructor(
    @InjectRepository(RunEntity) private readonly runs: Repository<RunEntity>,
    private readonly registry: InstanceRegistry,
    private readonly reader: RunFiguresReader,
    private readonly bus: RunEventsBus,
    private readonly resets: ProductResetService,
    private readonly inventories: InventoryService,
    private readonly connections: RedisConnections,
    @Inject(STOCK_STRATEGIES) private readonly strategies: StrategyRegistry,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  async execute(runId: string): Promise<void> {
    const run = await this.runs.findOneByOrFail({ id: runId });
    if (run.status !== 'queued') return;
    await this.runs.update(run.id, { status: 'running', startedAt: new Date() });
    await this.bus.publish({ type: 'status', runId, status: 'running' });
    let result: RunResult;
    try {
      result = await this.measure(run);
    } catch (error) {
      await this.fail(runId, error instanceof Error ? error.message : String(error));
      throw error;
    }
    await this.runs.update(run.id, { status: 'completed', finishedAt: new Date(), result });
    await this.bus.publish({ type: 'status', runId, status: 'completed' });
    await this.publishResult(runId);
  }

  /** The final event every stream of the run ends on. */
  private async publishResult(runId: string): Promise<void> {
    await this.bus.publish({ type: 'result', runId, run: toView(await this.runs.findOneByOrFail({ id: runId }), { withLockEvents: true }) });
  }

  /** Marks a run failed with its reason (also used when BullMQ gives up on a stalled run). */
  async fail(runId: string, failure: string): Promise<void> {
    const updated = await this.runs.update({ id: runId, status: 'running' }, { status: 'failed', finishedAt: new Date(), failure });
    if (!updated.affected) return;
    await this.bus.publish({ type: 'status', runId, status: 'failed', failure });
    // Also when BullMQ, not execute(), gave up on the run (its worker died): streams must still end.
    await this.publishResult(runId);
  }

  private async measure(run: RunEntity): Promise<RunResult> {
    const params = run.params;
    const noop = params.strategy === NOOP_TARGET;
    const instances = await this.registry.live();
    if (!instances.length) throw new Error('no live order-service instance to send the load to');
    // The no-op endpoint validates an order body; any strategy name will do, none is called.
    const strategy: StrategyName = noop ? STRATEGY_NAMES[0] : (params.strategy as StrategyName);
    const settings = noop
      ? null
      : await this.resets.reset(run.productId, { stock: params.initialStock, strategy, lockTtlMs: params.lockTtlMs, businessDelayMs: params.businessDelayMs, segments: params.segments }, run.id);

    const peaks = new PeakMemory();
    peaks.observe(instances);
    const remainingBySecond = new Map<number, number>();
    const sampleRemaining = async () => {
      if (settings) remainingBySecond.set(Math.floor(Date.now() / 1000), (await this.strategies.get(strategy).remaining(settings)) ?? 0);
    };
    const abort = new AbortController();
    let failure: string | null = null;
    const startedAt = Date.now();
    const startSecond = Math.floor(startedAt / 1000);
    let lockEventsSeen = 0;
    // Holdings reach Redis when they end, possibly a tick after the second they belong to: the live
    // holder count looks at every holding that may still touch the second it reports.
    let recentHoldings: LockEvent[] = [];
    let ticking = false;

    const tick = async () => {
      if (ticking) return;
      ticking = true;
      try {
        const beats = await this.registry.live();
        peaks.observe(beats);
        const gone = instances.filter((i) => !beats.some((b) => b.instance === i.instance && b.pid === i.pid));
        if (gone.length && !failure) {
          failure = `instance ${gone.map(describe).join(', ')} stopped during the run`;
          abort.abort();
          return;
        }
        await sampleRemaining();
        // The last complete second, so its figures no longer change.
        const second = Math.floor(Date.now() / 1000) - 1;
        const [{ counts, units }, bucket, events] = await Promise.all([
          this.reader.counts(run.id),
          this.reader.second(run.id, second),
          this.reader.lockEvents(run.id, lockEventsSeen, LOCK_EVENTS_PER_TICK),
        ]);
        lockEventsSeen += events.length;
        recentHoldings = [...recentHoldings.filter((e) => e.releasedAt >= (second - 1) * 1000), ...events];
        if (events.length) await this.bus.publish({ type: 'lock', runId: run.id, events });
        const point: TimelinePoint = {
          t: second - startSecond,
          attempts: bucket.attempts,
          sold: bucket.units,
          soldTotal: units,
          remaining: remainingBySecond.get(second + 1) ?? remainingBySecond.get(second) ?? 0,
          p99: bucket.p99,
          lockHolders: holdersBySecond(recentHoldings).get(second)?.size ?? 0,
        };
        await this.bus.publish({ type: 'progress', runId: run.id, point, counts, oversold: noop ? 0 : Math.max(0, units - params.initialStock) });
      } catch (error) {
        this.logger.warn(`progress of run ${run.id}: ${error}`);
      } finally {
        ticking = false;
      }
    };
    await sampleRemaining();
    const timer = setInterval(() => void tick(), TICK_MS);
    let summary: LoadSummary;
    try {
      summary = await this.drive({ urls: instances.map((i) => i.url), target: noop ? 'noop' : 'orders', productId: run.productId, strategy, profile: params.load, runId: run.id }, abort.signal);
    } catch (error) {
      // Aborted because an instance died: that is the reason to report, not the abort itself.
      throw failure ? new Error(failure) : error;
    } finally {
      clearInterval(timer);
    }
    if (failure) throw new Error(failure);
    const durationSec = (Date.now() - startedAt) / 1000;

    await this.flushInstances(run.id, instances, this.longestOrderMs(params));
    await sampleRemaining();
    const figures = await this.reader.read(run.id);
    const lockEvents: LockEvent[] = await this.reader.lockEvents(run.id);
    const reconciliation = noop ? NO_RECONCILIATION : reconcile(await this.inventories.inventory(run.productId), lockEvents);
    return {
      counts: figures.counts,
      conflictRetries: figures.conflicts,
      latency: overallLatency(figures),
      throughput: Math.round((figures.counts.attempts / durationSec) * 10) / 10,
      durationSec: Math.round(durationSec * 100) / 100,
      timeline: timeline(figures, startSecond, remainingBySecond, lockEvents),
      lockEvents: lockEvents.slice(0, LOCK_EVENTS_STORED),
      reconciliation,
      instances: peaks.figures().map((p) => ({ ...p, attempts: figures.attemptsByInstance.get(p.instance) ?? 0 })),
      driver: summary.driver,
    };
  }

  /** k6 when the machine has it (K6_BIN or PATH), the Node runner in a child process otherwise. */
  private drive(options: LoadOptions, signal: AbortSignal): Promise<LoadSummary> {
    return findK6() ? runK6Load(options, { signal }) : forkLoad(options, undefined, signal);
  }

  /**
   * How long one order of this run can take at most: the lock wait, then the business time (once per
   * retry of a strategy that retries), then the writes.
   */
  private longestOrderMs(params: RunEntity['params']): number {
    const attempts = params.strategy === NOOP_TARGET ? 1 : (this.strategies.get(params.strategy).businessDelaysPerOrder ?? 1);
    return this.options.lockWaitTimeoutMs + (params.businessDelayMs ?? 0) * attempts + DRAIN_MARGIN_MS;
  }

  /**
   * Asks every instance to let its in-flight orders finish and push what it still buffers, and waits
   * for each one's answer, so the figures read next are complete. An instance that does not answer,
   * still had orders in flight, or could not write its figures fails the run rather than skew it.
   */
  private async flushInstances(runId: string, instances: readonly InstanceBeat[], drainTimeoutMs: number): Promise<void> {
    const nonce = randomUUID();
    const pending = new Set(instances.map((i) => i.instance));
    const subscriber = this.connections.commands.duplicate();
    try {
      const acked = new Promise<void>((resolve, reject) => {
        const timeoutMs = drainTimeoutMs + FLUSH_ACK_MARGIN_MS;
        const timer = setTimeout(() => reject(new Error(`instance ${[...pending].join(', ')} did not report its figures within ${timeoutMs} ms`)), timeoutMs);
        subscriber.on('message', (_channel, message: string) => {
          const ack = JSON.parse(message) as FlushAck;
          if (ack.nonce !== nonce) return;
          if (!ack.drained || !ack.flushed) {
            clearTimeout(timer);
            reject(new Error(ack.drained ? `instance ${ack.instance} could not write its figures to Redis` : `instance ${ack.instance} still had orders in flight ${drainTimeoutMs} ms after the load stopped`));
            return;
          }
          pending.delete(ack.instance);
          if (pending.size === 0) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      await subscriber.subscribe(flushAckChannel(this.options.keyPrefix, runId));
      await this.connections.commands.publish(flushRequestsChannel(this.options.keyPrefix), JSON.stringify({ runId, nonce, drainTimeoutMs } satisfies FlushRequest));
      await acked;
    } finally {
      await subscriber.quit().catch(() => undefined);
    }
  }
}

function describe(beat: InstanceBeat): string {
  return `${beat.instance} (port ${beat.port}, pid ${beat.pid})`;
}
