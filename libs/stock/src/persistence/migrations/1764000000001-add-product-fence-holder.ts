import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds the product row's highest fencing token (watchdog-fenced-mysql): the holding's own token.
 * A Redis failover can issue the same fencing token twice (the counter lives on the lost master), and
 * the row then tells the two holders apart by this column: an equal token is accepted only from the
 * holder that brought it first. NULL before any fenced holder touched the row.
 */
export class AddProductFenceHolder1764000000001 implements MigrationInterface {
  name = 'AddProductFenceHolder1764000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products ADD COLUMN fence_holder VARCHAR(64) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE products DROP COLUMN fence_holder');
  }
}
