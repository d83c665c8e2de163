import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys compared byte for byte. The column had the table's case-insensitive collation while
 * the keys' Redis claims are case-sensitive: two orders keyed "Key-A" and "key-a" both passed their
 * claims, and the unique index then took the second for the first (a sync order was answered with the
 * other's order and its units went back; a queued one was dropped). Rows kept are unique either way.
 */
export class IdempotencyKeyCaseSensitive1764100000000 implements MigrationInterface {
  name = 'IdempotencyKeyCaseSensitive1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders MODIFY idempotency_key VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL');
  }

  /** Back to the table's own collation; fails on a duplicate key once two keys differ only in case. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders MODIFY idempotency_key VARCHAR(128) NULL');
  }
}
