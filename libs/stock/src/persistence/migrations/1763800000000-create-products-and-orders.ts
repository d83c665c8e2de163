import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProductsAndOrders1763800000000 implements MigrationInterface {
  name = 'CreateProductsAndOrders1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE products (
        id INT UNSIGNED NOT NULL,
        sku VARCHAR(64) NOT NULL,
        name VARCHAR(200) NOT NULL,
        initial_stock INT NOT NULL,
        stock INT NOT NULL,
        version INT UNSIGNED NOT NULL DEFAULT 0,
        run_id CHAR(36) NOT NULL,
        strategy VARCHAR(32) NOT NULL,
        lock_ttl_ms INT UNSIGNED NOT NULL,
        business_delay_ms INT UNSIGNED NOT NULL,
        segments SMALLINT UNSIGNED NOT NULL,
        updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
        PRIMARY KEY (id),
        UNIQUE KEY uq_products_sku (sku)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
    await queryRunner.query(`
      CREATE TABLE orders (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        product_id INT UNSIGNED NOT NULL,
        quantity INT UNSIGNED NOT NULL,
        strategy VARCHAR(32) NOT NULL,
        run_id CHAR(36) NOT NULL,
        idempotency_key VARCHAR(128) NULL,
        instance_id VARCHAR(64) NOT NULL,
        created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
        PRIMARY KEY (id),
        UNIQUE KEY uq_orders_idempotency_key (idempotency_key),
        KEY idx_orders_product_run (product_id, run_id),
        CONSTRAINT fk_orders_product FOREIGN KEY (product_id) REFERENCES products (id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE orders');
    await queryRunner.query('DROP TABLE products');
  }
}
