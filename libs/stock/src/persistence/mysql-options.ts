import type { DataSourceOptions } from 'typeorm';
import type { MysqlConnectionSettings } from './ensure-database';
import { STOCK_ENTITIES, STOCK_MIGRATIONS } from './schema';

type Extra = Pick<DataSourceOptions, 'entities' | 'migrations'>;

/**
 * The TypeORM options every host of this library uses: mysql2, schema from migrations (never
 * synchronize), and a pool large enough for a few hundred in-flight orders per process.
 */
export function mysqlDataSourceOptions(settings: MysqlConnectionSettings, extra: Partial<Extra> = {}, poolSize = 20): DataSourceOptions {
  return {
    type: 'mysql',
    host: settings.host,
    port: settings.port,
    username: settings.user,
    password: settings.password,
    database: settings.database,
    entities: [...STOCK_ENTITIES, ...((extra.entities as []) ?? [])],
    migrations: [...STOCK_MIGRATIONS, ...((extra.migrations as []) ?? [])],
    synchronize: false,
    poolSize,
  };
}
