import { DataSource } from 'typeorm';
import { ensureDatabase, mysqlDataSourceOptions, runMigrationsExclusively } from '../persistence';
import { startLockServices } from './lock-services';
import { testMysqlSettings } from './test-services';

/**
 * Creates the test database and runs the migrations once, before any test process connects, and starts
 * the lock services (etcd, …) the strategies need, gone when jest exits.
 */
export default async function globalSetup(): Promise<void> {
  startLockServices();
  const settings = testMysqlSettings();
  await ensureDatabase(settings);
  const dataSource = new DataSource({ ...mysqlDataSourceOptions(settings), migrationsRun: false });
  await dataSource.initialize();
  try {
    await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
