import { Injectable } from '@nestjs/common';
import type { LockEvent, OrderOutcome, RunTarget } from '@oversell/contracts';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

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

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'oversell_' });
  }

  order(strategy: RunTarget, outcome: OrderOutcome, latencyMs: number): void {
    this.orders.inc({ strategy, outcome });
    this.orderDuration.observe({ strategy, outcome }, latencyMs / 1000);
  }

  lock(strategy: RunTarget, event: LockEvent): void {
    this.lockWait.observe({ strategy }, (event.acquiredAt - event.requestedAt) / 1000);
    this.lockHold.observe({ strategy, expired: String(event.expired) }, (event.releasedAt - event.acquiredAt) / 1000);
  }
}
