import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { StrategyName } from '@oversell/contracts';

/** One successful deduction. Units sold are counted from these rows, never from the stock store. */
@Entity({ name: 'orders' })
@Index('idx_orders_product_run', ['productId', 'runId'])
export class OrderEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  @Column({ name: 'product_id', type: 'int', unsigned: true })
  productId!: number;

  @Column({ type: 'int', unsigned: true })
  quantity!: number;

  @Column({ type: 'varchar', length: 32 })
  strategy!: StrategyName;

  @Column({ name: 'run_id', type: 'char', length: 36 })
  runId!: string;

  /**
   * A client's retry with the same key returns the first order instead of taking stock twice. Compared
   * byte for byte, as its Redis claim is: "Key-A" and "key-a" are two keys.
   */
  @Index('uq_orders_idempotency_key', { unique: true })
  @Column({ name: 'idempotency_key', type: 'varchar', length: 128, nullable: true, charset: 'utf8mb4', collation: 'utf8mb4_bin' })
  idempotencyKey!: string | null;

  /** The attempt that wrote the row: lets an attempt whose INSERT failed ambiguously find out whether it landed. */
  @Index('uq_orders_request_id', { unique: true })
  @Column({ name: 'request_id', type: 'char', length: 36, nullable: true })
  requestId!: string | null;

  @Column({ name: 'instance_id', type: 'varchar', length: 64 })
  instanceId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
