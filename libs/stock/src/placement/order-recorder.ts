import { Inject, Injectable } from '@nestjs/common';
import type { OrderView, StrategyName } from '@oversell/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { OrderEntity } from '../persistence/order.entity';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { DuplicateIdempotencyKeyError } from '../errors';
import { IdempotencyKeys } from './idempotency-keys';

export interface NewOrder {
  productId: number;
  quantity: number;
  strategy: StrategyName;
  runId: string;
  idempotencyKey: string | null;
  /** The deduction attempt writing it. */
  requestId: string;
}

const ER_DUP_ENTRY = 1062;

/** Writes and reads order rows: the single source of "units sold". */
@Injectable()
export class OrderRecorder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly idempotencyKeys: IdempotencyKeys,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  /** One INSERT, no read-back (createdAt is stamped here), inside the caller's transaction when given. */
  async record(order: NewOrder, manager: EntityManager = this.dataSource.manager): Promise<OrderView> {
    const createdAt = new Date();
    try {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(OrderEntity)
        .values({ ...order, instanceId: this.options.instanceId, createdAt })
        .updateEntity(false)
        .execute();
      const id = Number((result.raw as { insertId: number }).insertId);
      if (order.idempotencyKey) await this.idempotencyKeys.remember(order.idempotencyKey);
      return toView({ ...order, id: String(id), createdAt }, false);
    } catch (error) {
      if (order.idempotencyKey && (error as { driverError?: { errno?: number } }).driverError?.errno === ER_DUP_ENTRY) {
        throw new DuplicateIdempotencyKeyError(order.idempotencyKey);
      }
      throw error;
    }
  }

  async findByIdempotencyKey(idempotencyKey: string): Promise<OrderView | null> {
    const row = await this.dataSource.getRepository(OrderEntity).findOneBy({ idempotencyKey });
    return row && toView(row, true);
  }

  /** The order a deduction attempt wrote, if its INSERT landed. */
  async findByRequestId(requestId: string): Promise<OrderView | null> {
    const row = await this.dataSource.getRepository(OrderEntity).findOneBy({ requestId });
    return row && toView(row, false);
  }

  async soldInRun(productId: number, runId: string): Promise<{ units: number; orders: number }> {
    const [row]: { units: string | null; orders: string }[] = await this.dataSource.query(
      'SELECT SUM(quantity) AS units, COUNT(*) AS orders FROM orders WHERE product_id = ? AND run_id = ?',
      [productId, runId],
    );
    return { units: Number(row.units ?? 0), orders: Number(row.orders) };
  }
}

function toView(row: Pick<OrderEntity, 'id' | 'productId' | 'quantity' | 'strategy' | 'runId' | 'idempotencyKey' | 'createdAt'>, replayed: boolean): OrderView {
  return {
    id: Number(row.id),
    productId: row.productId,
    quantity: row.quantity,
    strategy: row.strategy,
    runId: row.runId,
    idempotencyKey: row.idempotencyKey,
    createdAt: row.createdAt.toISOString(),
    replayed,
  };
}
