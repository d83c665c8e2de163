import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The highest fencing token the product row's stock has seen (watchdog-fenced-mysql): the fenced
 * read and write refuse a lower one. 0 before any fenced holder touched the row.
 */
export class AddProductFence1763900000010 implements MigrationInterface {
  name = 'AddProductFence1763900000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products ADD COLUMN fence BIGINT UNSIGNED NOT NULL DEFAULT 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products DROP COLUMN fence');
  }
}
