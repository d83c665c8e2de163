import type { DataSource } from 'typeorm';

const LOCK_NAME = 'oversell_lab_migrations';
const LOCK_WAIT_SECONDS = 60;

/**
 * Runs pending migrations while holding a MySQL named lock, so K instances starting together do not
 * all try to create the same tables (MySQL DDL is not transactional; the losers would fail).
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = await runner.query('SELECT GET_LOCK(?, ?) AS locked', [LOCK_NAME, LOCK_WAIT_SECONDS]);
    if (Number(locked) !== 1) throw new Error(`another process held the migration lock for ${LOCK_WAIT_SECONDS} s`);
    try {
      await dataSource.runMigrations();
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    await runner.release();
  }
}
