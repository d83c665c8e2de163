import { DataSource } from 'typeorm';
import { ensureDatabase, mysqlDataSourceOptions, runMigrationsExclusively } from '../persistence';
import { testMysqlSettings } from './test-services';

/** Creates the test database and runs the migrations once, before any test process connects. */
export default async function globalSetup(): Promise<void> {
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
