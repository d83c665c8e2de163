import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { FaultEvent, FaultSettings, LockEvent, OrderWriteFigures, Reconciliation, RunResult, RunTrace, TimelinePoint } from '@oversell/contracts';
import { driveLoad, type LoadSummary } from '@oversell/loadtests';
import { RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import type { Repository } from 'typeorm';
import { recordFaultEvent } from '../faults/fault-injector';
import { requestFlush } from '../figures/flush-protocol';
import { LockHistory } from '../figures/lock-history';
import { labProcesses } from '../figures/lab-processes';
import { CpuWindow } from '../figures/process-cpu';
import { RemainingSamples } from '../figures/remaining-samples';
import { holdersBySecond, overallLatency, RunFiguresReader, timeline, type RunFigures, type RunMoments } from '../figures/run-figures.reader';
import { INSTANCE_SILENT_AFTER_MS, InstanceRegistry, PeakMemory, RunInstancesWatch, type InstanceBeat } from '../instances/instance-registry';
import { ORDER_DRAIN_TIMEOUT_MS, type OrderQueueWatch } from './order-queue-watch';
import { CONTROL_DATA_SOURCE, RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { StrategyTargets, type RunTarget } from './run-target';
import { toView } from './runs.service';

const TICK_MS = 1000;
/** Time for an instance to answer after its drain: the flush itself and the message. */
const FLUSH_ACK_MARGIN_MS = 10_000;
/** Beyond the lock wait and the business time: the writes of an order under load. */
const DRAIN_MARGIN_MS = 15_000;
/** Lock events streamed to the dashboard per second, and kept with the stored result. */
const LOCK_EVENTS_PER_TICK = 2000;
const LOCK_EVENTS_STORED = 20_000;

/** What one run's measuring carries from step to step. */
interface Measurement {
  run: RunEntity;
  /** The strategy or the no-op ceiling, chosen once at the start. */
  target: RunTarget;
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
    private readonly connections: RedisConnections,
    private readonly targets: StrategyTargets,
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
    Object.assign(run, { status: 'running', startedAt: new Date() });
    await this.runs.update(run.id, { status: run.status, startedAt: run.startedAt });
    await this.bus.publish({ type: 'status', runId, status: 'running' });
    let result: RunResult;
    try {
      result = await this.measure(run, runToken);
    } catch (error) {
      await this.fail(runId, error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (!(await holdsJob())) return this.fail(runId, 'the run worker lost the run\'s queue job (stalled) before the run ended: its figures are not recorded');
    const finished = { status: 'completed' as const, finishedAt: new Date(), result };
    const completed = await this.runs.update({ id: run.id, status: 'running' }, finished);
    if (!completed.affected) return;
    await this.bus.publish({ type: 'status', runId, status: 'completed' });
    // The row as just written, not read again: the run read at the start, completed with its result.
    await this.publishResult(Object.assign(run, finished));
  }

  /** The final event every stream of the run ends on. */
  private async publishResult(run: RunEntity): Promise<void> {
    await this.bus.publish({ type: 'result', runId: run.id, run: toView(run, { withLockEvents: true }) });
  }

  /** Marks a run failed with its reason (also used when BullMQ gives up on a stalled run). */
  async fail(runId: string, failure: string): Promise<void> {
    const updated = await this.runs.update({ id: runId, status: 'running' }, { status: 'failed', finishedAt: new Date(), failure });
    if (!updated.affected) return;
    await this.bus.publish({ type: 'status', runId, status: 'failed', failure });
    // Also when BullMQ, not execute(), gave up on the run (its worker died): streams must still end.
    await this.publishResult(await this.runs.findOneByOrFail({ id: runId }));
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
    await this.flushInstances(measurement, this.longestOrderMs(measurement));
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
    const { target } = measurement;
    const reconciliation = await target.reconcile(figures, locks, orderWrite);
    await target.close();
    const trace = await target.trace(figures, reconciliation, faults);
    return { ...this.result(measurement, { summary, durationSec, figures, locks, reconciliation, faults, orderWrite, trace }), cpu: loadCpu };
  }

  private async liveInstances(): Promise<InstanceBeat[]> {
    const instances = await this.registry.live();
    if (!instances.length) throw new Error('no live order-service instance to send the load to');
    return instances;
  }

  /** Chooses the run's target (resets its product, targets its faults) and starts watching the instances. */
  private async begin(run: RunEntity, instances: InstanceBeat[]): Promise<Measurement> {
    const target = await this.targets.open(run, instances);
    const peaks = new PeakMemory();
    peaks.observe(instances);
    const watch = new RunInstancesWatch(this.registry, () => this.reader.batchesByInstance(run.id), instances, Date.now(), INSTANCE_SILENT_AFTER_MS + longestFreezeMs(run.params.faults));
    const startedAt = Date.now();
    await this.recordClockOffsets(run.id, target.faults ?? [], instances, startedAt);
    const orderQueue = target.orderBacklog(startedAt);
    return { run, target, instances, peaks, watch, remaining: new RemainingSamples(), orderQueue, abort: new AbortController(), failure: null, crashed: new Set(), startedAt, startSecond: Math.floor(startedAt / 1000) };
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
  private async recordDoubleClick({ run, target, startedAt }: Measurement, summary: LoadSummary): Promise<void> {
    const { doubleClick } = target;
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
  private async sampleRemaining({ target, remaining, orderQueue }: Measurement): Promise<number | undefined> {
    const left = await target.remaining();
    if (left !== undefined) remaining.add(Date.now(), left);
    await orderQueue?.sample();
    return left;
  }

  /** Drives the load to its end, publishing progress every second; fails when an instance stopped meanwhile. */
  private async driveLoad(measurement: Measurement, runToken: string): Promise<LoadSummary> {
    const { run, target, instances, abort } = measurement;
    const progress: Progress = { lockEventsSeen: 0, faultEventsSeen: 0, recentHoldings: [], ticking: false };
    await this.sampleRemaining(measurement);
    const timer = setInterval(() => void this.tick(measurement, progress), TICK_MS);
    let summary: LoadSummary;
    try {
      summary = await driveLoad({ urls: instances.map((i) => i.url), target: target.route, productId: run.productId, strategy: target.strategy, profile: run.params.load, runToken, doubleClick: target.doubleClick }, abort.signal);
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
    const { run, target, peaks, watch, remaining, startSecond } = measurement;
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
      await this.bus.publish({ type: 'progress', runId: run.id, point, counts, ...target.soldSoFar(units, remainingNow) });
    } catch (error) {
      this.logger.warn(`progress of run ${run.id}: ${error}`);
    } finally {
      progress.ticking = false;
    }
  }

  private result(
    { target, startSecond, remaining, peaks, crashed }: Measurement,
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
      contendedPhase: target.contendedPhase(points, (t) => figures.seconds.get(startSecond + t)?.histogram, { ...figures.moments, startSecond }),
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
  private longestOrderMs({ run, target }: Measurement): number {
    return this.options.lockWaitTimeoutMs + (run.params.businessDelayMs ?? 0) * target.businessDelaysPerOrder + DRAIN_MARGIN_MS;
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
