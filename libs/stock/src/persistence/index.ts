export { ensureDatabase, LAB_MYSQL_PASSWORD, LAB_MYSQL_USER, type MysqlConnectionSettings } from './ensure-database';
export { mysqlDataSourceOptions } from './mysql-options';
export { runMigrationsExclusively } from './run-migrations';
export { OrderEntity } from './order.entity';
export { ProductEntity } from './product.entity';
export { STOCK_ENTITIES, STOCK_MIGRATIONS } from './schema';
