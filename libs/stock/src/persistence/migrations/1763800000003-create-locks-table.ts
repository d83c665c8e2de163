import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The articles' lock table, for the db-lock-table locks of @oversell/locks (their SQL is in
 * libs/locks/src/db-lock-table/): one row per lock name, its owner's token, and, for the expiring
 * flavour, when its lease ends by the database's UTC clock. Binary strings, so names and owners
 * compare byte for byte: a case-insensitive collation would let token "A" release the lock of "a".
 */
export class CreateLocksTable1763800000003 implements MigrationInterface {
  name = 'CreateLocksTable1763800000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE locks (
        name VARBINARY(255) NOT NULL,
        owner VARBINARY(255) NULL,
        expires_at DATETIME(3) NULL,
        PRIMARY KEY (name)
      ) ENGINE=InnoDB`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE locks');
  }
}
