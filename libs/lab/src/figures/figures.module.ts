import { Module, type OnModuleInit } from '@nestjs/common';
import { OrderStreams, OrderWriteQueue } from '@oversell/stock';
import { MetricsService } from './metrics.service';
import { LAB_OPTIONS, type LabOptions } from '../lab.options';
import { OrderFigures, TRACED_ORDERS } from './order-figures';
import { RunFiguresReader } from './run-figures.reader';

/**
 * A run's figures: each instance counts the orders it answers (and relays them to Prometheus), pools
 * them in Redis and flushes on request; the run worker reads them back.
 */
@Module({
  providers: [MetricsService, OrderFigures, RunFiguresReader, { provide: TRACED_ORDERS, inject: [LAB_OPTIONS], useFactory: (lab: LabOptions) => lab.tracedOrders }],
  exports: [MetricsService, OrderFigures, RunFiguresReader],
})
export class FiguresModule implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly orderQueue: OrderWriteQueue,
    private readonly orderStreams: OrderStreams,
  ) {}

  onModuleInit(): void {
    this.metrics.watchOrderWriteQueue(() => this.orderQueue.backlog());
    this.metrics.watchOrderStreams(() => this.orderStreams.backlog());
  }
}
