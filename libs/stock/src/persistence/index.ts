export { ensureDatabase, type MysqlConnectionSettings } from './ensure-database';
export { mysqlDataSourceOptions } from './mysql-options';
export { runMigrationsExclusively } from './run-migrations';
export { OrderEntity } from './order.entity';
export { ProductEntity } from './product.entity';
export { STOCK_ENTITIES, STOCK_MIGRATIONS } from './schema';
