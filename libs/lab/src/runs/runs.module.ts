import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import { FiguresModule } from '../figures/figures.module';
import { bullPrefix } from '../redis-keys';
import { InstanceRegistry } from '../instances/instance-registry';
import { CONTROL_DATA_SOURCE, RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { RunExecutor } from './run-executor';
import { StrategyTargets } from './run-target';
import { RunProcessor } from './run.processor';
import { RUNS_QUEUE } from './runs.constants';
import { RunTokens } from './run-tokens';
import { RunsService } from './runs.service';

@Module({
  imports: [
    FiguresModule,
    TypeOrmModule.forFeature([RunEntity], CONTROL_DATA_SOURCE),
    BullModule.forRootAsync({
      inject: [STOCK_OPTIONS],
      useFactory: ({ redis, keyPrefix }: StockOptions) => ({
        connection: { host: redis.host, port: redis.port, password: redis.password },
        prefix: bullPrefix(keyPrefix),
      }),
    }),
    BullModule.registerQueue({ name: RUNS_QUEUE }),
  ],
  providers: [RunsService, RunExecutor, StrategyTargets, RunProcessor, RunEventsBus, InstanceRegistry, RunTokens],
  exports: [RunTokens, InstanceRegistry, RunsService, RunEventsBus],
})
export class RunsModule {}
