import type { RunParams, RunResult, RunStatus } from '@oversell/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** One lab run and, once it ended, its figures: the history the dashboard shows after a reload. */
@Entity({ name: 'runs' })
@Index('idx_runs_created_at', ['createdAt'])
export class RunEntity {
  @PrimaryColumn({ type: 'char', length: 36 })
  id!: string;

  /**
   * The lab that queued it: its REDIS_KEY_PREFIX. Labs on one MySQL database share this table (the demo,
   * a bench, a soak); each lists and serves only its own runs, never another's that is still queued or
   * was left running by a session that died. Null for runs from before it existed: shown in every lab
   * once finished, in none while still queued or running.
   */
  @Column({ type: 'varchar', length: 128, nullable: true })
  lab!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: RunStatus;

  @Column({ type: 'json' })
  params!: RunParams;

  @Column({ name: 'product_id', type: 'int', unsigned: true })
  productId!: number;

  @Column({ name: 'batch_id', type: 'char', length: 36, nullable: true })
  batchId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'datetime', precision: 3, nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'datetime', precision: 3, nullable: true })
  finishedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  failure!: string | null;

  @Column({ type: 'json', nullable: true })
  result!: RunResult | null;
}

export class CreateRuns1763800000001 implements MigrationInterface {
  name = 'CreateRuns1763800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE runs (
        id CHAR(36) NOT NULL,
        status VARCHAR(16) NOT NULL,
        params JSON NOT NULL,
        product_id INT UNSIGNED NOT NULL,
        batch_id CHAR(36) NULL,
        created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
        started_at DATETIME(3) NULL,
        finished_at DATETIME(3) NULL,
        failure TEXT NULL,
        result LONGTEXT NULL,
        PRIMARY KEY (id),
        KEY idx_runs_created_at (created_at),
        KEY idx_runs_batch (batch_id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE runs');
  }
}

export class AddRunLab1764100000001 implements MigrationInterface {
  name = 'AddRunLab1764100000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE runs ADD COLUMN lab VARCHAR(128) NULL AFTER id, ADD KEY idx_runs_lab_created_at (lab, created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE runs DROP KEY idx_runs_lab_created_at, DROP COLUMN lab');
  }
}

export const RUN_ENTITIES = [RunEntity];
/**
 * The TypeORM DataSource the runs table goes through: straight to MySQL, never through the store-cut
 * proxy the stock's default DataSource uses, so a MySQL store cut cannot fail the run that injected it.
 */
export const CONTROL_DATA_SOURCE = 'control';
export const RUN_MIGRATIONS = [CreateRuns1763800000001, AddRunLab1764100000001];
