import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether the product's run (its run_id) had its store seeded: the reset sets it once the strategy's
 * store holds the stock. MySQL keeps it when Redis loses its keys, so a Redis store found empty for a
 * seeded run reads as lost, not as never seeded. Products reset before this column existed were seeded.
 */
export class AddProductSeeded1763800000004 implements MigrationInterface {
  name = 'AddProductSeeded1763800000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products ADD COLUMN seeded TINYINT(1) NOT NULL DEFAULT 0');
    await queryRunner.query('UPDATE products SET seeded = 1');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products DROP COLUMN seeded');
  }
}
