import type { MigrationInterface, QueryRunner } from 'typeorm';

/** How the current run's sold orders are written (sync or queued), so settings read back from MySQL keep it. */
export class AddProductOrderWrite1764000000000 implements MigrationInterface {
  name = 'AddProductOrderWrite1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE products ADD COLUMN order_write VARCHAR(8) NOT NULL DEFAULT 'sync'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products DROP COLUMN order_write');
  }
}
