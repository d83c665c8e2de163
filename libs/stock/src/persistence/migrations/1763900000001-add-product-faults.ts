import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The faults of the product's current run (JSON FaultSettings[]), so an instance that finds the run's
 * settings gone from Redis still injects them; NULL for a run without faults.
 */
export class AddProductFaults1763900000001 implements MigrationInterface {
  name = 'AddProductFaults1763900000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products ADD COLUMN faults JSON NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products DROP COLUMN faults');
  }
}
