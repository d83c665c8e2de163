import { Injectable } from '@nestjs/common';
import { ORDER_OUTCOMES, RUN_TARGETS, STRATEGY_NAMES, type LockEvent, type OrderOutcome, type RunTarget } from '@oversell/contracts';
import type { OrderStreamBacklog, OrderWriteBacklog } from '@oversell/stock';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Up to 120 s: a lock wait, a business time (30 s at most) and a lock TTL (60 s at most) can each pass 10 s,
// and an observation above the last bucket reads back as that bucket's bound in histogram_quantile.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** This instance's Prometheus figures, served at /metrics for users who run Prometheus/Grafana. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly orders = new Counter({
    name: 'oversell_orders_total',
    help: 'Order attempts by strategy and outcome.',
    labelNames: ['strategy', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly orderDuration = new Histogram({
    name: 'oversell_order_duration_seconds',
    help: 'Time to answer an order, by strategy and outcome.',
    labelNames: ['strategy', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly lockWait = new Histogram({
    name: 'oversell_lock_wait_seconds',
    help: 'Time from asking for a lock to holding it.',
    labelNames: ['strategy'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly lockHold = new Histogram({
    name: 'oversell_lock_hold_seconds',
    help: 'Time a lock was held, by whether its lease ran out under the holder.',
    labelNames: ['strategy', 'expired'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /** Set by the runs module (this one has no queue); read at each scrape. */
  private readRunQueueDepth?: () => Promise<number>;

  // Every instance reads the same queue: a dashboard charts its max over instances, not its sum.
  private readonly runQueueDepth = new Gauge({
    name: 'oversell_run_queue_depth',
    help: 'Runs waiting in the run queue (the running one aside), read from the queue at each scrape; NaN when it could not be read.',
    registers: [this.registry],
    collect: async () => {
      if (!this.readRunQueueDepth) return;
      // A failed read must not fail the whole scrape: the order and process figures are still good.
      const depth = await this.readRunQueueDepth().catch(() => Number.NaN);
      this.runQueueDepth.set(depth);
    },
  });

  /** Set by the figures module; read at each scrape by the order-write queue's gauges. */
  private readOrderWriteBacklog?: () => Promise<OrderWriteBacklog>;
  /** Set by the figures module; read at each scrape by the order streams' gauges. */
  private readOrderStreamBacklog?: () => Promise<OrderStreamBacklog>;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'oversell_' });
    // The order-write queue and the order streams are Redis's, shared like the run queue: every instance reports the same backlog.
    this.backlogGauge(
      'oversell_order_write_queue_depth',
      "Orders sold under orderWrite 'queued' and not yet written to MySQL (waiting, being written, or waiting to be retried); NaN when the queue could not be read.",
      () => this.readOrderWriteBacklog,
      (b) => b.depth,
    );
    this.backlogGauge(
      'oversell_order_write_lag_seconds',
      'Age of the oldest order not yet written from the order-write queue (0 with none); NaN when the queue could not be read.',
      () => this.readOrderWriteBacklog,
      (b) => b.oldestAgeMs / 1000,
    );
    this.backlogGauge(
      'oversell_order_stream_depth',
      "Orders sold under orderWrite 'stream' and not yet written to MySQL (entries in the order streams); NaN when the streams could not be read.",
      () => this.readOrderStreamBacklog,
      (b) => b.depth,
    );
    this.backlogGauge(
      'oversell_order_stream_pending',
      'Order stream entries delivered to a stream writer and not acknowledged (in its batch, or left by a writer that died until another claims them); NaN when the streams could not be read.',
      () => this.readOrderStreamBacklog,
      (b) => b.pending,
    );
    this.backlogGauge(
      'oversell_order_stream_lag_seconds',
      'Age of the oldest order not yet written from the order streams (0 with none); NaN when the streams could not be read.',
      () => this.readOrderStreamBacklog,
      (b) => b.oldestAgeMs / 1000,
    );

    // prom-client creates a series at its first observation, so Prometheus would first scrape it already at
    // its total and rate()/increase() would see no rise: a flash sale sold out before the first scrape
    // vanished from the dashboard. Every series that can be observed starts at 0 instead.
    for (const strategy of RUN_TARGETS) {
      for (const outcome of ORDER_OUTCOMES) {
        this.orders.inc({ strategy, outcome }, 0);
        this.orderDuration.zero({ strategy, outcome });
      }
    }
    for (const strategy of STRATEGY_NAMES) {
      this.lockWait.zero({ strategy });
      for (const expired of ['true', 'false']) this.lockHold.zero({ strategy, expired });
    }
  }

  order(strategy: RunTarget, outcome: OrderOutcome, latencyMs: number): void {
    this.orders.inc({ strategy, outcome });
    this.orderDuration.observe({ strategy, outcome }, latencyMs / 1000);
  }

  lock(strategy: RunTarget, event: LockEvent): void {
    this.lockWait.observe({ strategy }, (event.acquiredAt - event.requestedAt) / 1000);
    this.lockHold.observe({ strategy, expired: String(event.expired) }, (event.releasedAt - event.acquiredAt) / 1000);
  }

  /** Reports the run queue's depth from now on, as `read` counts it at each scrape. */
  watchRunQueue(read: () => Promise<number>): void {
    this.readRunQueueDepth = read;
  }

  /** Reports the order-write queue's depth and lag from now on, as `read` finds them at each scrape. */
  watchOrderWriteQueue(read: () => Promise<OrderWriteBacklog>): void {
    this.readOrderWriteBacklog = read;
  }

  /** Reports the order streams' depth, pending entries and lag from now on, as `read` finds them at each scrape. */
  watchOrderStreams(read: () => Promise<OrderStreamBacklog>): void {
    this.readOrderStreamBacklog = read;
  }

  /** A gauge set at each scrape from a backlog, once its reader is set; NaN when the read fails (the other figures are still good). */
  private backlogGauge<B>(name: string, help: string, reader: () => (() => Promise<B>) | undefined, value: (backlog: B) => number): Gauge {
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers: [this.registry],
      collect: async () => {
        const read = reader();
        if (read) gauge.set(await read().then(value, () => Number.NaN));
      },
    });
    return gauge;
  }
}
