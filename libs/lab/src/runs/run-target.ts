import { Inject, Injectable } from '@nestjs/common';
import { isCeilingTarget, STRATEGY_NAMES, traceOfRun, unitsSoldTwiceSoFar, type ContendedPhase, type FaultEvent, type FaultSettings, type OrderWriteFigures, type ProductRunSettings, type Reconciliation, type RunTrace, type StrategyName, type TimelinePoint } from '@oversell/contracts';
import { doubleClickOf, type DoubleClick, type LoadTarget } from '@oversell/loadtests';
import { InventoryService, OrderStreams, OrderWriteQueue, ProductResetService, STOCK_OPTIONS, STOCK_STRATEGIES, type StockOptions, type StrategyRegistry } from '@oversell/stock';
import type * as hdr from 'hdr-histogram-js';
import { targetFaults } from '../faults/fault-targets';
import { contendedPhase } from '../figures/contended-phase';
import type { LockHistory } from '../figures/lock-history';
import { RunFiguresReader, type RunFigures, type RunMoments } from '../figures/run-figures.reader';
import type { InstanceBeat } from '../instances/instance-registry';
import { ORDER_DRAIN_TIMEOUT_MS, OrderQueueWatch, ordersStillQueued } from './order-queue-watch';
import { reconcile } from './reconciliation';
import type { RunEntity } from './run.entity';

const NO_RECONCILIATION: Reconciliation = { initialStock: 0, remaining: 0, sold: 0, orders: 0, oversold: 0, lost: 0, exclusionViolations: 0, lockEventsDropped: 0, storesAgree: true };

/** What the live progress says of the units sold so far. */
export interface SoldSoFar {
  oversold: number;
  soldTwice: number;
}

/**
 * What a run drives its load at, chosen once when the run starts: a strategy (a product reset for the
 * run, its faults, stores to reconcile, a trace) or the no-op ceiling (the same route and validation,
 * nothing behind it). The executor asks the target, never the run's strategy name.
 */
export interface RunTarget {
  /** The strategy the load's orders name. */
  readonly strategy: StrategyName;
  /** The route the load tool drives. */
  readonly route: LoadTarget;
  /** The run's faults, resolved to the instances live at its start. */
  readonly faults: FaultSettings[] | undefined;
  /** The double-click the load tool sends (a fault of the run's), if any. */
  readonly doubleClick: DoubleClick | undefined;
  /** How many business times one order can pay at most (once per retry of a strategy that retries). */
  readonly businessDelaysPerOrder: number;
  /** The product as reset for the run; null for the ceiling. */
  readonly settings: ProductRunSettings | null;
  /** Watches the run's queued or streamed orders, if it writes them later. */
  orderBacklog(startedAt: number): OrderQueueWatch | null;
  /** The store's remaining stock now; undefined for the ceiling. */
  remaining(): Promise<number | undefined>;
  /** The live progress's oversold and sold-twice units. */
  soldSoFar(units: number, remaining: number | undefined): SoldSoFar;
  /** The stores against the instances' figures. */
  reconcile(figures: RunFigures, locks: LockHistory, orderWrite: OrderWriteFigures | undefined): Promise<Reconciliation>;
  /** The run's pitfall step by step (its first unit sold twice, or its deadlock), from the traced orders. */
  trace(figures: RunFigures, reconciliation: Reconciliation, faults: FaultEvent[]): Promise<RunTrace | undefined>;
  /** The seconds the orders contended for the stock. */
  contendedPhase(points: readonly TimelinePoint[], histogramAt: (t: number) => hdr.Histogram | undefined, moments: RunMoments & { startSecond: number }): ContendedPhase | undefined;
  /** After the run: its product is its own and never reset again, so its order stream, written out, goes. */
  close(): Promise<void>;
}

/** The no-op ceiling: nothing reset, nothing to break, nothing to reconcile. */
class CeilingTarget implements RunTarget {
  // The no-op endpoint validates an order body; any strategy name will do, none is called.
  readonly strategy = STRATEGY_NAMES[0];
  readonly route = 'noop';
  readonly faults = undefined;
  readonly doubleClick = undefined;
  readonly businessDelaysPerOrder = 1;
  readonly settings = null;

  orderBacklog(): null {
    return null;
  }
  async remaining(): Promise<undefined> {
    return undefined;
  }
  soldSoFar(): SoldSoFar {
    return { oversold: 0, soldTwice: 0 };
  }
  async reconcile(): Promise<Reconciliation> {
    return NO_RECONCILIATION;
  }
  async trace(): Promise<undefined> {
    return undefined;
  }
  contendedPhase(): undefined {
    return undefined;
  }
  async close(): Promise<void> {}
}

/** A strategy under load: its product reset under the run's id, with the run's faults. */
export class StrategyTarget implements RunTarget {
  readonly route = 'orders';

  constructor(
    private readonly run: RunEntity,
    readonly strategy: StrategyName,
    readonly faults: FaultSettings[] | undefined,
    readonly settings: ProductRunSettings,
    private readonly stock: StrategyTargets,
  ) {}

  get doubleClick(): DoubleClick | undefined {
    return doubleClickOf(this.run.params.faults);
  }

  get businessDelaysPerOrder(): number {
    return this.stock.strategies.get(this.strategy).businessDelaysPerOrder ?? 1;
  }

  orderBacklog(startedAt: number): OrderQueueWatch | null {
    // Queued or streamed, the run's orders are waited for (bounded) and what is left is reported before the books are read.
    const backlog = this.settings.orderWrite === 'queued' ? this.stock.orderWrites : this.settings.orderWrite === 'stream' ? this.stock.orderStreams : null;
    return backlog && new OrderQueueWatch(backlog, Math.floor(startedAt / 1000), this.settings.runId);
  }

  async remaining(): Promise<number> {
    return (await this.stock.strategies.get(this.strategy).remaining(this.settings)) ?? 0;
  }

  soldSoFar(units: number, remaining: number | undefined): SoldSoFar {
    const { initialStock } = this.run.params;
    return { oversold: Math.max(0, units - initialStock), soldTwice: remaining === undefined ? 0 : unitsSoldTwiceSoFar(initialStock, units, remaining) };
  }

  async reconcile(figures: RunFigures, locks: LockHistory, orderWrite: OrderWriteFigures | undefined): Promise<Reconciliation> {
    // Takes whose order MySQL could not answer for are settled once it answers: bounded like the queue's drain.
    const reconciliation = reconcile(await this.stock.inventories.settledInventory(this.run.productId, ORDER_DRAIN_TIMEOUT_MS), locks.holdings, figures.lockEventsDropped);
    return orderWrite ? { ...reconciliation, ordersStillQueued: ordersStillQueued(orderWrite) } : reconciliation;
  }

  async trace(figures: RunFigures, reconciliation: Reconciliation, faults: FaultEvent[]): Promise<RunTrace | undefined> {
    const { moves } = reconciliation;
    return traceOfRun({
      steps: await this.stock.reader.traceSteps(this.run.id),
      faults,
      sameRead: moves?.firstSameRead,
      journalSaysNone: !!moves && !moves.firstSameRead,
      lockTimeouts: figures.counts.lock_timeout,
      remaining: reconciliation.remaining,
      conflictRetries: figures.conflicts,
      sold: reconciliation.sold,
    });
  }

  contendedPhase(points: readonly TimelinePoint[], histogramAt: (t: number) => hdr.Histogram | undefined, moments: RunMoments & { startSecond: number }): ContendedPhase | undefined {
    return contendedPhase(points, histogramAt, this.run.params.initialStock, moments);
  }

  async close(): Promise<void> {
    // One still holding orders stays listed for the writers. Best effort: a stream left behind costs a read per writer loop.
    if (this.settings.orderWrite === 'stream') await this.stock.orderStreams.close(this.settings).catch(() => undefined);
  }
}

/** Chooses a run's target once, at its start: what the stock library and the figures give a strategy target. */
@Injectable()
export class StrategyTargets {
  constructor(
    readonly resets: ProductResetService,
    readonly inventories: InventoryService,
    readonly orderWrites: OrderWriteQueue,
    readonly orderStreams: OrderStreams,
    readonly reader: RunFiguresReader,
    @Inject(STOCK_STRATEGIES) readonly strategies: StrategyRegistry,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  /**
   * The run's target. For a strategy, its faults are resolved to the live instances (a fault naming an
   * instance that is gone, or a crash naming this one, fails the run here, with nothing reset), then its
   * product is reset under the run's id.
   */
  async open(run: RunEntity, instances: readonly InstanceBeat[]): Promise<RunTarget> {
    const { params } = run;
    if (isCeilingTarget(params.strategy)) return new CeilingTarget();
    const strategy = params.strategy;
    const faults = params.faults?.length ? targetFaults(params.faults, instances, this.options.instanceId) : undefined;
    const settings = await this.resets.reset(run.productId, { stock: params.initialStock, strategy, lockTtlMs: params.lockTtlMs, businessDelayMs: params.businessDelayMs, segments: params.segments, orderWrite: params.orderWrite, faults }, run.id);
    return new StrategyTarget(run, strategy, faults, settings, this);
  }
}
