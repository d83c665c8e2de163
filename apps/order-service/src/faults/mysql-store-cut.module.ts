import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MYSQL_STORE_CUT, StoreCutProxy } from '@oversell/stock';
import { mysqlConfig, redisConfig, type MysqlConfig, type RedisConfig } from '../config/configuration';

/**
 * The store-cut fault's proxy in front of MySQL, opened with Redis's (STORE_PROXY): the stock's
 * DataSource (stock rows, MySQL locks, order writes) connects through it, the runs table does not
 * (CONTROL_DATA_SOURCE). Null without STORE_PROXY.
 */
@Global()
@Module({
  providers: [
    {
      provide: MYSQL_STORE_CUT,
      inject: [mysqlConfig.KEY, redisConfig.KEY],
      useFactory: (mysql: MysqlConfig, redis: RedisConfig) => (redis.storeProxy ? StoreCutProxy.open({ host: mysql.host, port: mysql.port }) : null),
    },
  ],
  exports: [MYSQL_STORE_CUT],
})
export class MysqlStoreCutModule implements OnApplicationShutdown {
  constructor(@Inject(MYSQL_STORE_CUT) private readonly proxy: StoreCutProxy | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.proxy?.close();
  }
}
