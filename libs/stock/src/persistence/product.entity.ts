import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { FaultSettings, OrderWrite, ProductRunSettings, StrategyName } from '@oversell/contracts';

/**
 * A product and the settings of the run it was last reset for. `stock` and `version` are the MySQL
 * store of the database strategies; the Redis strategies keep their stock in Redis and only read
 * `initialStock` from here.
 */
@Entity({ name: 'products' })
export class ProductEntity implements Omit<ProductRunSettings, 'productId' | 'faults'> {
  @PrimaryColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ type: 'varchar', length: 64, unique: true })
  sku!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ name: 'initial_stock', type: 'int' })
  initialStock!: number;

  @Column({ type: 'int' })
  stock!: number;

  /** Optimistic-locking version, bumped by the db-optimistic strategy's own conditional UPDATE. */
  @Column({ type: 'int', unsigned: true, default: 0 })
  version!: number;

  @Column({ name: 'run_id', type: 'char', length: 36 })
  runId!: string;

  @Column({ type: 'varchar', length: 32 })
  strategy!: StrategyName;

  @Column({ name: 'lock_ttl_ms', type: 'int', unsigned: true })
  lockTtlMs!: number;

  @Column({ name: 'business_delay_ms', type: 'int', unsigned: true })
  businessDelayMs!: number;

  @Column({ type: 'smallint', unsigned: true })
  segments!: number;

  /** The highest fencing token that reached the row's stock (watchdog-fenced-mysql); a lower one is refused. */
  @Column({ type: 'bigint', unsigned: true, default: 0 })
  fence!: string;

  /** The holding that brought `fence` (its own token): an equal token from another holding is refused. */
  @Column({ name: 'fence_holder', type: 'varchar', length: 64, nullable: true })
  fenceHolder!: string | null;

  @Column({ name: 'order_write', type: 'varchar', length: 8, default: 'sync' })
  orderWrite!: OrderWrite;

  /** The run's faults; null for a run without. */
  @Column({ type: 'json', nullable: true })
  faults!: FaultSettings[] | null;

  /** The run's store was seeded: an empty Redis store then means Redis lost it, not that the reset never finished. */
  @Column({ type: 'boolean', default: false })
  seeded!: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
