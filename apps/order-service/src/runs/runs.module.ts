import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { redisConfig, type RedisConfig } from '../config/configuration';
import { FiguresModule } from '../figures/figures.module';
import { bullPrefix } from '../redis-keys';
import { InstanceRegistry } from './instance-registry';
import { CONTROL_DATA_SOURCE, RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { RunExecutor } from './run-executor';
import { RunProcessor } from './run.processor';
import { RunsController } from './runs.controller';
import { RUNS_QUEUE } from './runs.constants';
import { RunTokens } from './run-tokens';
import { RunsService } from './runs.service';

@Module({
  imports: [
    FiguresModule,
    TypeOrmModule.forFeature([RunEntity], CONTROL_DATA_SOURCE),
    BullModule.forRootAsync({
      inject: [redisConfig.KEY],
      useFactory: (redis: RedisConfig) => ({
        connection: { host: redis.host, port: redis.port, password: redis.password },
        prefix: bullPrefix(redis.keyPrefix),
      }),
    }),
    BullModule.registerQueue({ name: RUNS_QUEUE }),
  ],
  controllers: [RunsController],
  providers: [RunsService, RunExecutor, RunProcessor, RunEventsBus, InstanceRegistry, RunTokens],
  exports: [RunTokens, InstanceRegistry],
})
export class RunsModule {}
