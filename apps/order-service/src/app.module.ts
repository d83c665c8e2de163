import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ensureDatabase, MYSQL_STORE_CUT, mysqlDataSourceOptions, runMigrationsExclusively, StockModule, StoreCutProxy } from '@oversell/stock';
import { CONTROL_DATA_SOURCE, LabModule, RUN_ENTITIES, RUN_MIGRATIONS, RunFaultInjector } from '@oversell/lab';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { appConfig, mysqlConfig, redisConfig, type AppConfig, type MysqlConfig, type RedisConfig } from './config/configuration';
import { envSchema } from './config/env.schema';
import { CourseController } from './http/course.controller';
import { MysqlStoreCutModule } from './faults/mysql-store-cut.module';
import { HealthController } from './health/health.controller';
import { RedisHealthIndicator } from './health/redis.health';
import { MetricsController } from './http/metrics.controller';
import { ProductsController } from './http/products.controller';
import { RunsController } from './http/runs.controller';
import { StrategiesController } from './http/strategies.controller';
import { LabFiguresController } from './lab-figures/lab-figures.controller';

/** The runs table's pool: a run's few reads and writes, never the orders'. */
const CONTROL_POOL_SIZE = 4;

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
        pinoHttp: {
          level: app.logLevel,
          autoLogging: false,
          base: { instance: app.instanceId },
          // A line logged while serving a request names it, never its headers: they carry the admin token
          // and the run token. (Serializing them into every request's child logger also cost ~5 % of a no-op.)
          serializers: { req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }) },
        },
      }),
    }),
    // The runs table and the migrations: straight to MySQL, so a store cut never cuts the lab's bookkeeping.
    TypeOrmModule.forRootAsync({
      name: CONTROL_DATA_SOURCE,
      inject: [mysqlConfig.KEY],
      useFactory: async (mysql: MysqlConfig) => {
        await ensureDatabase(mysql);
        // The name here too: @nestjs/typeorm's shutdown looks the DataSource up by the options' name.
        return { ...mysqlDataSourceOptions(mysql, { entities: RUN_ENTITIES, migrations: RUN_MIGRATIONS }, CONTROL_POOL_SIZE), name: CONTROL_DATA_SOURCE };
      },
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrationsExclusively(dataSource);
        return dataSource;
      },
    }),
    // The stock's (the default DataSource StockModule injects): through the MySQL store-cut proxy when there is one.
    TypeOrmModule.forRootAsync({
      imports: [MysqlStoreCutModule],
      inject: [mysqlConfig.KEY, MYSQL_STORE_CUT],
      useFactory: async (mysql: MysqlConfig, storeCut: StoreCutProxy | null) => {
        await ensureDatabase(mysql);
        return mysqlDataSourceOptions({ ...mysql, ...storeCut?.route }, {}, mysql.poolSize);
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
        lockServices: app.lockServices,
        sentinelMaster: redis.sentinelMaster,
        writeQueuedOrders: app.orderWriter,
      }),
      faultInjector: RunFaultInjector,
    }),
    TerminusModule,
    LabModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (app: AppConfig) => ({
        instanceId: app.instanceId,
        instanceUrl: app.instanceUrl,
        port: app.port,
        runWorker: app.runWorker,
        runQueueLimit: app.runQueueLimit,
        tracedOrders: app.tracedOrders,
      }),
    }),
  ],
  controllers: [CourseController, ProductsController, StrategiesController, RunsController, MetricsController, HealthController, LabFiguresController],
  providers: [RedisHealthIndicator],
})
export class AppModule {}
