import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each order row carries the id of the attempt that wrote it, so an attempt whose INSERT failed in an
 * ambiguous way (connection lost after the commit) can ask whether its order exists before giving
 * units back.
 */
export class AddOrderRequestId1763800000002 implements MigrationInterface {
  name = 'AddOrderRequestId1763800000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders ADD COLUMN request_id CHAR(36) NULL, ADD UNIQUE KEY uq_orders_request_id (request_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders DROP INDEX uq_orders_request_id, DROP COLUMN request_id');
  }
}
