import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { NOOP_TARGET, STRATEGY_NAMES, traceOfRun, unitsSoldTwiceSoFar, type FaultEvent, type FaultSettings, type LockEvent, type OrderWriteFigures, type ProductRunSettings, type Reconciliation, type RunResult, type RunTrace, type StrategyName, type TimelinePoint } from '@oversell/contracts';
import { doubleClickOf, driveLoad, type LoadSummary } from '@oversell/loadtests';
import { InventoryService, OrderStreams, OrderWriteQueue, ProductResetService, RedisConnections, STOCK_OPTIONS, STOCK_STRATEGIES, type StockOptions, type StrategyRegistry } from '@oversell/stock';
import type { Repository } from 'typeorm';
import { recordFaultEvent } from '../faults/fault-injector';
import { targetFaults } from '../faults/fault-targets';
import { contendedPhase } from '../figures/contended-phase';
import { requestFlush } from '../figures/flush-protocol';
import { LockHistory } from '../figures/lock-history';
import { labProcesses } from '../figures/lab-processes';
import { CpuWindow } from '../figures/process-cpu';
import { RemainingSamples } from '../figures/remaining-samples';
import { holdersBySecond, overallLatency, RunFiguresReader, timeline, type RunFigures, type RunMoments } from '../figures/run-figures.reader';
import { INSTANCE_SILENT_AFTER_MS, InstanceRegistry, PeakMemory, RunInstancesWatch, type InstanceBeat } from '../instances/instance-registry';
import { ORDER_DRAIN_TIMEOUT_MS, OrderQueueWatch, ordersStillQueued } from './order-queue-watch';
import { reconcile } from './reconciliation';
import { CONTROL_DATA_SOURCE, RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { toView } from './runs.service';

const TICK_MS = 1000;
/** Time for an instance to answer after its drain: the flush itself and the message. */
const FLUSH_ACK_MARGIN_MS = 10_000;
/** Beyond the lock wait and the business time: the writes of an order under load. */
const DRAIN_MARGIN_MS = 15_000;
/** Lock events streamed to the dashboard per second, and kept with the stored result. */
const LOCK_EVENTS_PER_TICK = 2000;
const LOCK_EVENTS_STORED = 20_000;
const NO_RECONCILIATION: Reconciliation = { initialStock: 0, remaining: 0, sold: 0, orders: 0, oversold: 0, lost: 0, exclusionViolations: 0, lockEventsDropped: 0, storesAgree: true };

/** What one run's measuring carries from step to step. */
interface Measurement {
  run: RunEntity;
  /** The no-op ceiling: no product reset, nothing to reconcile. */
  noop: boolean;
  /** The strategy the load's orders name. */
  strategy: StrategyName;
  /** The product as reset for the run; null for the no-op ceiling. */
  settings: ProductRunSettings | null;
  instances: InstanceBeat[];
  peaks: PeakMemory;
  watch: RunInstancesWatch;
  /** Remaining stock as sampled while the run goes. */
  remaining: RemainingSamples;
  /** The order-write queue's backlog, sampled with the remaining stock; null unless the run queues its orders. */
  orderQueue: OrderQueueWatch | null;
  /** Stops the load once an instance stopped; `failure` says which. */
  abort: AbortController;
  failure: string | null;
  /** Instances a crash fault killed (their crash event is recorded): their death does not fail the run. */
  crashed: Set<string>;
  startedAt: number;
  startSecond: number;
}

/** Where the live progress is in the run's lock holdings, between ticks. */
interface Progress {
  lockEventsSeen: number;
  /**
   * Holdings reach Redis when they end, possibly a tick after the second they belong to: the live
   * holder count looks at every holding that may still touch the second it reports.
   */
  recentHoldings: LockEvent[];
  faultEventsSeen: number;
  /** A tick still running when the next is due: the next is skipped. */
  ticking: boolean;
}

/**
 * Executes one run: reset the product under the run's id, drive the load at every live instance,
 * stream progress each second, then gather the instances' own figures and reconcile the stores.
 */
@Injectable()
export class RunExecutor {
  private readonly logger = new Logger(RunExecutor.name);

  constructor(
    @InjectRepository(RunEntity, CONTROL_DATA_SOURCE) private readonly runs: Repository<RunEntity>,
    private readonly registry: InstanceRegistry,
    private readonly reader: RunFiguresReader,
    private readonly bus: RunEventsBus,
    private readonly resets: ProductResetService,
    private readonly inventories: InventoryService,
    private readonly connections: RedisConnections,
    private readonly orderWrites: OrderWriteQueue,
    private readonly orderStreams: OrderStreams,
    @Inject(STOCK_STRATEGIES) private readonly strategies: StrategyRegistry,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  /**
   * `holdsJob` says whether this worker still holds the run's queue job, and keeps it held while the
   * result is written: BullMQ takes back a job whose lock lapsed (stalled) and fails it, and a result
   * written after that would contradict the failure the run's streams already ended on.
   */
  async execute(runId: string, runToken: string, holdsJob: () => Promise<boolean>): Promise<void> {
    const run = await this.runs.findOneByOrFail({ id: runId });
    if (run.status !== 'queued') return;
    await this.runs.update(run.id, { status: 'running', startedAt: new Date() });
    await this.bus.publish({ type: 'status', runId, status: 'running' });
    let result: RunResult;
    try {
      result = await this.measure(run, runToken);
    } catch (error) {
      await this.fail(runId, error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (!(await holdsJob())) return this.fail(runId, 'the run worker lost the run\'s queue job (stalled) before the run ended: its figures are not recorded');
    const completed = await this.runs.update({ id: run.id, status: 'running' }, { status: 'completed', finishedAt: new Date(), result });
    if (!completed.affected) return;
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

  /**
   * Resets the product, drives the load at every live instance while streaming progress, then has the
   * instances flush and reads back their figures and the stores.
   */
  private async measure(run: RunEntity, runToken: string): Promise<RunResult> {
    const measurement = await this.begin(run, await this.liveInstances());
    const cpu = await CpuWindow.start(await labProcesses(measurement.instances, this.connections.control, this.options.redis.host ?? '127.0.0.1', this.runs.manager.connection));
    const summary = await this.driveLoad(measurement, runToken);
    const loadEndedAt = Date.now();
    const loadCpu = await cpu.end(summary.cpuMs === undefined ? [] : [{ role: 'load-tool', name: summary.driver, cpuMs: summary.cpuMs }]);
    const durationSec = (loadEndedAt - measurement.startedAt) / 1000;
    await this.recordDoubleClick(measurement, summary);
    // A crashed instance cannot flush: what it had not pushed yet is lost (the result says so). Its crash
    // may also come during the drain, its fault point passed by an order still in flight.
    await this.flushInstances(measurement, this.longestOrderMs(run.params));
    // A queued order not yet written shows as a take without an order: the books wait for the queue, bounded
    // from the load's end (the writers drained through the flush too).
    const orderWrite = await measurement.orderQueue?.drain(ORDER_DRAIN_TIMEOUT_MS, loadEndedAt);
    // Read after the drain: a fault still lasting when the load stopped (a cut, a pause) is recorded as it ends, inside its order.
    const faults = await this.reader.faultEvents(run.id);
    noteCrashes(measurement, faults);
    await this.sampleRemaining(measurement);
    const figures = await this.reader.read(run.id);
    const locks = new LockHistory(LOCK_EVENTS_STORED);
    await this.reader.readLockEvents(run.id, (page) => locks.add(page));
    const reconciliation = await this.reconcileStores(measurement, figures, locks, orderWrite);
    // The run's product is its own and never reset again: its stream, written out, goes now (one still
    // holding orders stays listed for the writers). Best effort: a stream left behind costs a read per writer loop.
    if (measurement.settings?.orderWrite === 'stream') await this.orderStreams.close(measurement.settings).catch(() => undefined);
    const trace = measurement.noop ? undefined : await this.traceOf(run.id, figures, reconciliation, faults);
    return { ...this.result(measurement, { summary, durationSec, figures, locks, reconciliation, faults, orderWrite, trace }), cpu: loadCpu };
  }

  private async liveInstances(): Promise<InstanceBeat[]> {
    const instances = await this.registry.live();
    if (!instances.length) throw new Error('no live order-service instance to send the load to');
    return instances;
  }

  /** Resets the product under the run's id (the no-op ceiling has none) and starts watching the instances. */
  private async begin(run: RunEntity, instances: InstanceBeat[]): Promise<Measurement> {
    const params = run.params;
    const noop = params.strategy === NOOP_TARGET;
    // The no-op endpoint validates an order body; any strategy name will do, none is called.
    const strategy: StrategyName = noop ? STRATEGY_NAMES[0] : (params.strategy as StrategyName);
    // Before the reset: a fault naming an instance that is gone, or a crash naming this one, fails the run here, with nothing reset.
    const faults = params.faults?.length && !noop ? targetFaults(params.faults, instances, this.options.instanceId) : undefined;
    const settings = noop
      ? null
      : await this.resets.reset(run.productId, { stock: params.initialStock, strategy, lockTtlMs: params.lockTtlMs, businessDelayMs: params.businessDelayMs, segments: params.segments, orderWrite: params.orderWrite, faults }, run.id);
    const peaks = new PeakMemory();
    peaks.observe(instances);
    const watch = new RunInstancesWatch(this.registry, () => this.reader.batchesByInstance(run.id), instances, Date.now(), INSTANCE_SILENT_AFTER_MS + longestFreezeMs(run.params.faults));
    const startedAt = Date.now();
    await this.recordClockOffsets(run.id, faults ?? [], instances, startedAt);
    // Queued or streamed, the run's orders are waited for (bounded) and what is left is reported before the books are read.
    const backlog = settings?.orderWrite === 'queued' ? this.orderWrites : settings?.orderWrite === 'stream' ? this.orderStreams : null;
    const orderQueue = backlog && settings ? new OrderQueueWatch(backlog, Math.floor(startedAt / 1000), settings.runId) : null;
    return { run, noop, strategy, settings, instances, peaks, watch, remaining: new RemainingSamples(), orderQueue, abort: new AbortController(), failure: null, crashed: new Set(), startedAt, startSecond: Math.floor(startedAt / 1000) };
  }

  /** A clock-offset holds from the run's start on: it is marked there, on each instance it shifts. */
  private async recordClockOffsets(runId: string, faults: readonly FaultSettings[], instances: readonly InstanceBeat[], startedAt: number): Promise<void> {
    for (const fault of faults.filter((f) => f.kind === 'clock-offset')) {
      for (const beat of instances.filter((i) => fault.instanceId === undefined || i.instance === fault.instanceId)) {
        await recordFaultEvent(this.connections, this.options.keyPrefix, runId, { kind: fault.kind, at: null, instance: beat.instance, requestId: null, startedAt, endedAt: null });
      }
    }
  }

  /** The double-click is the load tool's, driven from this instance over the whole load: marked here, with what it sent. */
  private async recordDoubleClick({ run, noop, startedAt }: Measurement, summary: LoadSummary): Promise<void> {
    const doubleClick = noop ? undefined : doubleClickOf(run.params.faults);
    if (!doubleClick) return;
    // k6 reports requests, not clicks: each click sent every copy in one batch.
    const clicks = summary.clicks ?? Math.floor(summary.sent / doubleClick.copies);
    await recordFaultEvent(this.connections, this.options.keyPrefix, run.id, {
      kind: 'double-click',
      at: null,
      instance: this.options.instanceId,
      requestId: null,
      startedAt,
      endedAt: Date.now(),
      doubleClick: { clicks, ...doubleClick },
    });
  }

  /** Reads the store's remaining stock (returned, undefined for the no-op) and the order queue's backlog. */
  private async sampleRemaining({ settings, strategy, remaining, orderQueue }: Measurement): Promise<number | undefined> {
    let left: number | undefined;
    if (settings) {
      left = (await this.strategies.get(strategy).remaining(settings)) ?? 0;
      remaining.add(Date.now(), left);
    }
    await orderQueue?.sample();
    return left;
  }

  /** Drives the load to its end, publishing progress every second; fails when an instance stopped meanwhile. */
  private async driveLoad(measurement: Measurement, runToken: string): Promise<LoadSummary> {
    const { run, noop, strategy, instances, abort } = measurement;
    const progress: Progress = { lockEventsSeen: 0, faultEventsSeen: 0, recentHoldings: [], ticking: false };
    await this.sampleRemaining(measurement);
    const timer = setInterval(() => void this.tick(measurement, progress), TICK_MS);
    let summary: LoadSummary;
    try {
      summary = await driveLoad({ urls: instances.map((i) => i.url), target: noop ? 'noop' : 'orders', productId: run.productId, strategy, profile: run.params.load, runToken, doubleClick: noop ? undefined : doubleClickOf(run.params.faults) }, abort.signal);
    } catch (error) {
      // Aborted because an instance died: that is the reason to report, not the abort itself.
      throw measurement.failure ? new Error(measurement.failure) : error;
    } finally {
      clearInterval(timer);
    }
    if (measurement.failure) throw new Error(measurement.failure);
    return summary;
  }

  /** One second of live progress: aborts the load if an instance stopped, else publishes the last complete second. */
  private async tick(measurement: Measurement, progress: Progress): Promise<void> {
    const { run, noop, peaks, watch, remaining, startSecond } = measurement;
    if (progress.ticking) return;
    progress.ticking = true;
    try {
      const beats = await this.registry.live();
      peaks.observe(beats);
      // Read before the instances: a crash is recorded before its instance dies, so a death is never seen first.
      const faults = await this.reader.faultEvents(run.id, progress.faultEventsSeen);
      progress.faultEventsSeen += faults.length;
      noteCrashes(measurement, faults);
      if (faults.length) await this.bus.publish({ type: 'fault', runId: run.id, events: faults });
      const gone = (await watch.gone()).filter((beat) => !measurement.crashed.has(beat.instance));
      if (gone.length && !measurement.failure) {
        measurement.failure = `instance ${gone.map(describe).join(', ')} stopped during the run`;
        measurement.abort.abort();
        return;
      }
      // The last complete second, so its figures no longer change.
      const second = Math.floor(Date.now() / 1000) - 1;
      const [{ counts, units }, bucket, events] = await Promise.all([
        this.reader.counts(run.id),
        this.reader.second(run.id, second),
        this.reader.lockEvents(run.id, progress.lockEventsSeen, LOCK_EVENTS_PER_TICK),
      ]);
      // After the count: every sale counted has then taken its units from the store (unitsSoldTwiceSoFar).
      const remainingNow = await this.sampleRemaining(measurement);
      progress.lockEventsSeen += events.length;
      progress.recentHoldings = [...progress.recentHoldings.filter((e) => e.releasedAt >= (second - 1) * 1000), ...events];
      if (events.length) await this.bus.publish({ type: 'lock', runId: run.id, events });
      const point: TimelinePoint = {
        t: second - startSecond,
        attempts: bucket.attempts,
        sold: bucket.units,
        soldTotal: units,
        remaining: remaining.atEndOf(second) ?? 0,
        p99: bucket.p99,
        lockHolders: holdersBySecond(progress.recentHoldings).get(second)?.size ?? 0,
      };
      const { initialStock } = run.params;
      await this.bus.publish({
        type: 'progress',
        runId: run.id,
        point,
        counts,
        oversold: noop ? 0 : Math.max(0, units - initialStock),
        soldTwice: noop || remainingNow === undefined ? 0 : unitsSoldTwiceSoFar(initialStock, units, remainingNow),
      });
    } catch (error) {
      this.logger.warn(`progress of run ${run.id}: ${error}`);
    } finally {
      progress.ticking = false;
    }
  }

  /** The stores against the instances' figures; the no-op ceiling has nothing to reconcile. */
  private async reconcileStores({ run, noop }: Measurement, figures: RunFigures, locks: LockHistory, orderWrite: OrderWriteFigures | undefined): Promise<Reconciliation> {
    if (noop) return NO_RECONCILIATION;
    // Takes whose order MySQL could not answer for are settled once it answers: bounded like the queue's drain.
    const reconciliation = reconcile(await this.inventories.settledInventory(run.productId, ORDER_DRAIN_TIMEOUT_MS), locks.holdings, figures.lockEventsDropped);
    return orderWrite ? { ...reconciliation, ordersStillQueued: ordersStillQueued(orderWrite) } : reconciliation;
  }

  /** The run's pitfall step by step, from the orders the instances traced: its first unit sold twice, or its deadlock. */
  private async traceOf(runId: string, figures: RunFigures, reconciliation: Reconciliation, faults: FaultEvent[]): Promise<RunTrace | undefined> {
    const { moves } = reconciliation;
    return traceOfRun({
      steps: await this.reader.traceSteps(runId),
      faults,
      sameRead: moves?.firstSameRead,
      journalSaysNone: !!moves && !moves.firstSameRead,
      lockTimeouts: figures.counts.lock_timeout,
      remaining: reconciliation.remaining,
    });
  }

  private result(
    { run, noop, startSecond, remaining, peaks, crashed }: Measurement,
    {
      summary,
      durationSec,
      figures,
      locks,
      reconciliation,
      faults,
      orderWrite,
      trace,
    }: { summary: LoadSummary; durationSec: number; figures: RunFigures; locks: LockHistory; reconciliation: Reconciliation; faults: FaultEvent[]; orderWrite: OrderWriteFigures | undefined; trace: RunTrace | undefined },
  ): RunResult {
    const points = timeline(figures, startSecond, remaining, locks.holdings);
    return {
      counts: figures.counts,
      conflictRetries: figures.conflicts,
      latency: overallLatency(figures),
      throughput: Math.round((figures.counts.attempts / answeringSec(figures.moments, durationSec)) * 10) / 10,
      durationSec: Math.round(durationSec * 100) / 100,
      timeline: points,
      lockEvents: locks.kept,
      reconciliation,
      instances: peaks.figures().map((p) => ({ ...p, attempts: figures.attemptsByInstance.get(p.instance) ?? 0 })),
      driver: summary.driver,
      contendedPhase: noop ? undefined : contendedPhase(points, (t) => figures.seconds.get(startSecond + t)?.histogram, run.params.initialStock, { ...figures.moments, startSecond }),
      faults,
      ...(crashed.size ? { crashedInstances: [...crashed] } : {}),
      ...(orderWrite ? { orderWrite } : {}),
      ...(trace ? { trace } : {}),
      executor: this.options.instanceId,
    };
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
   * for each one's answer or recorded crash, so the figures read next are complete. An instance that does not answer,
   * still had orders in flight, or could not write its figures fails the run rather than skew it.
   */
  private flushInstances({ run, instances, watch }: Measurement, drainTimeoutMs: number): Promise<void> {
    const recordedCrashes = async () => crashesIn(await this.reader.faultEvents(run.id));
    return requestFlush(this.connections.control, {
      keyPrefix: this.options.keyPrefix,
      runId: run.id,
      instances: instances.map((i) => i.instance),
      recordedCrashes,
      drainTimeoutMs,
      ackTimeoutMs: drainTimeoutMs + FLUSH_ACK_MARGIN_MS,
      // An instance that stops as the load ends never answers: named as soon as the registry sees it gone,
      // as during the load, rather than as "did not report" once the ack timeout is over.
      gone: async () => {
        const [gone, crashes] = await Promise.all([watch.gone(), recordedCrashes()]);
        return gone.filter((beat) => !crashes.includes(beat.instance)).map((beat) => ({ instance: beat.instance, description: describe(beat) }));
      },
    });
  }
}

/** The instances that recorded a crash fault: they are expected to die. */
/**
 * The seconds a run's answers took, from its first request's arrival to its last answer, as the
 * instances timed them. Not the load tool's time: the orders still waiting for a lock when it stops
 * are answered (and counted) after it, up to a lock wait later, and the tool's start before its first
 * request is no time of the service's. The load's time when the run had no answer.
 */
function answeringSec({ firstRequestAt, lastAnswerAt }: RunMoments, loadSec: number): number {
  if (firstRequestAt === undefined || lastAnswerAt === undefined) return loadSec;
  return Math.max(0.001, (lastAnswerAt - firstRequestAt) / 1000);
}

function crashesIn(faults: readonly FaultEvent[]): string[] {
  return faults.filter((event) => event.kind === 'crash').map((event) => event.instance);
}

/** Remembers the instances that recorded a crash fault: their death does not fail the run. */
function noteCrashes({ crashed }: Measurement, faults: readonly FaultEvent[]): void {
  for (const instance of crashesIn(faults)) crashed.add(instance);
}

/** The longest stop-the-world pause among a run's faults: its instance sends no heartbeat while frozen. */
function longestFreezeMs(faults: readonly FaultSettings[] | undefined): number {
  return Math.max(0, ...(faults ?? []).filter((fault) => fault.kind === 'stop-the-world').map((fault) => fault.durationMs ?? 0));
}

function describe(beat: InstanceBeat): string {
  return `${beat.instance} (port ${beat.port}, pid ${beat.pid})`;
}
