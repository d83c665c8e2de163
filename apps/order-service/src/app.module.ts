import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ensureDatabase, mysqlDataSourceOptions, runMigrationsExclusively, StockModule } from '@oversell/stock';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { appConfig, mysqlConfig, redisConfig, type AppConfig, type MysqlConfig, type RedisConfig } from './config/configuration';
import { envSchema } from './config/env.schema';
import { RunFaultInjector } from './faults/fault-injector';
import { FiguresModule } from './figures/figures.module';
import { HealthController } from './health/health.controller';
import { RedisHealthIndicator } from './health/redis.health';
import { NoopController } from './http/noop.controller';
import { OrdersController } from './http/orders.controller';
import { ProductsController } from './http/products.controller';
import { StrategiesController } from './http/strategies.controller';
import { RUN_ENTITIES, RUN_MIGRATIONS } from './runs/run.entity';
import { RunsModule } from './runs/runs.module';

@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      load: [appConfig, mysqlConfig, redisConfig],
      validationSchema: envSchema,
      validationOptions: { abortEarly: false, allowUnknown: true },
    }),
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (app: AppConfig) => ({
        // Logging every request would cost more than some strategies; errors are logged by the filter.
        pinoHttp: { level: app.logLevel, autoLogging: false, base: { instance: app.instanceId } },
      }),
    }),
    TypeOrmModule.forRootAsync({
      inject: [mysqlConfig.KEY],
      useFactory: async (mysql: MysqlConfig) => {
        await ensureDatabase(mysql);
        return mysqlDataSourceOptions(mysql, { entities: RUN_ENTITIES, migrations: RUN_MIGRATIONS }, mysql.poolSize);
      },
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrationsExclusively(dataSource);
        return dataSource;
      },
    }),
    StockModule.forRootAsync({
      inject: [appConfig.KEY, redisConfig.KEY],
      useFactory: (app: AppConfig, redis: RedisConfig) => ({
        redis: { host: redis.host, port: redis.port, password: redis.password },
        keyPrefix: redis.keyPrefix,
        instanceId: app.instanceId,
        lockWaitTimeoutMs: app.lockWaitTimeoutMs,
        optimisticMaxAttempts: app.optimisticMaxAttempts,
        clockOffsetMs: app.clockOffsetMs,
        storeProxy: redis.storeProxy,
      }),
      faultInjector: RunFaultInjector,
    }),
    TerminusModule,
    FiguresModule,
    RunsModule,
  ],
  controllers: [OrdersController, ProductsController, StrategiesController, NoopController, HealthController],
  providers: [RedisHealthIndicator],
})
export class AppModule {}
