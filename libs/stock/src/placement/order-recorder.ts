import { Inject, Injectable } from '@nestjs/common';
import type { OrderView, StrategyName } from '@oversell/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, type EntityManager } from 'typeorm';
import { OrderEntity } from '../persistence/order.entity';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { DuplicateIdempotencyKeyError } from '../errors';
import { definitelyNotWritten } from '../store-errors';
import { IdempotencyKeys } from './idempotency-keys';
import type { RunOrders } from './audit-stock-moves';

export interface NewOrder {
  productId: number;
  quantity: number;
  strategy: StrategyName;
  runId: string;
  idempotencyKey: string | null;
  /** The deduction attempt writing it. */
  requestId: string;
}

/** An order sold under orderWrite 'queued' (its idempotency key, if any, already claimed in Redis). */
export type QueuedOrder = NewOrder & {
  /** When it was queued (epoch ms): its row's created_at, and where its write lag counts from. */
  queuedAt: number;
};

const ER_DUP_ENTRY = 1062;
const ER_NO_SUCH_THREAD = 1094;
/** How often to look whether a killed connection has finished rolling back. */
const GONE_POLL_MS = 10;
/** Orders read per page where a reconciliation reads a run's orders through. */
const ORDERS_PAGE = 1000;

/** Writes and reads order rows: the single source of "units sold". */
@Injectable()
export class OrderRecorder {
  /**
   * The server connection of each INSERT that failed without saying whether it landed, until its
   * request asks (findByRequestId): the statement may still be running there.
   */
  private readonly unsettled = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly idempotencyKeys: IdempotencyKeys,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  /**
   * One INSERT, no read-back (createdAt is stamped here), inside the caller's transaction when given;
   * otherwise on a connection of its own, whose server thread it remembers if the INSERT fails in a
   * way that does not say whether it landed.
   */
  async record(order: NewOrder, manager?: EntityManager): Promise<OrderView> {
    if (manager) return this.insert(order, manager);
    const runner = this.dataSource.createQueryRunner();
    const connection = (await runner.connect()) as { threadId: number; destroy(): void };
    try {
      return await this.insert(order, runner.manager);
    } catch (error) {
      if (!definitelyNotWritten(error)) {
        this.unsettled.set(order.requestId, connection.threadId);
        // Not back to the pool: findByRequestId ends it on the server.
        connection.destroy();
      }
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async insert(order: NewOrder, manager: EntityManager): Promise<OrderView> {
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

  /**
   * Writes queued orders as one multi-row INSERT; a request id already written (the job retried after
   * its worker died between this INSERT and completing the job) is left as it is, so a retry never
   * doubles an order. ON DUPLICATE KEY rather than INSERT IGNORE: IGNORE would also turn other
   * failures (a truncated value) into warnings and drop the row silently. The update sets the column to
   * itself (the row already there), not to VALUES(): MariaDB takes the clause on any unique key, and an
   * idempotency key that already names another order (its claim expired, or Redis forgot it) would
   * otherwise relabel that order with this request's id. The later order is dropped instead, and the
   * reconciliation shows its units as taken without an order.
   */
  async recordQueued(orders: readonly QueuedOrder[]): Promise<void> {
    // Positional parameters in a text kept per batch size, not TypeORM's query builder: building the
    // statement from the entity's metadata cost more CPU per row than the row's share of the INSERT.
    const parameters: unknown[] = [];
    for (const order of orders) {
      parameters.push(order.productId, order.quantity, order.strategy, order.runId, order.idempotencyKey, order.requestId, this.options.instanceId, new Date(order.queuedAt));
    }
    await this.dataSource.query(queuedInsert(orders.length), parameters);
  }

  async findByIdempotencyKey(idempotencyKey: string): Promise<OrderView | null> {
    const row = await this.dataSource.getRepository(OrderEntity).findOneBy({ idempotencyKey });
    return row && toView(row, true);
  }

  /**
   * The order a deduction attempt wrote, if its INSERT landed. When that INSERT failed without an
   * answer, its statement can still be running on the server (a lost client connection does not stop
   * it), and a "no" read now could turn into a row a moment later, after the caller gave the units
   * back. So the connection that sent it is ended on the server first: once its thread is gone, the
   * INSERT either committed or was rolled back, and the answer holds.
   */
  async findByRequestId(requestId: string): Promise<OrderView | null> {
    const threadId = this.unsettled.get(requestId);
    if (threadId !== undefined) {
      try {
        await this.endConnection(threadId);
      } finally {
        this.unsettled.delete(requestId);
      }
    }
    const row = await this.dataSource.getRepository(OrderEntity).findOneBy({ requestId });
    return row && toView(row, false);
  }

  /** Kills a server connection of ours and waits until its thread has finished (rolled back); rejects after the lock wait. */
  private async endConnection(threadId: number): Promise<void> {
    await this.dataSource.query(`KILL CONNECTION ${Number(threadId)}`).catch((error: { driverError?: { errno?: number }; errno?: number }) => {
      if ((error.driverError?.errno ?? error.errno) !== ER_NO_SUCH_THREAD) throw error;
    });
    const deadline = Date.now() + this.options.lockWaitTimeoutMs;
    while ((await this.dataSource.query('SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?', [threadId])).length) {
      if (Date.now() > deadline) throw new Error(`connection ${threadId} of an unanswered INSERT was killed but has not ended after ${this.options.lockWaitTimeoutMs} ms`);
      await sleep(GONE_POLL_MS);
    }
  }

  async soldInRun(productId: number, runId: string): Promise<{ units: number; orders: number }> {
    const [row]: { units: string | null; orders: string }[] = await this.dataSource.query(
      'SELECT SUM(quantity) AS units, COUNT(*) AS orders FROM orders WHERE product_id = ? AND run_id = ?',
      [productId, runId],
    );
    return { units: Number(row.units ?? 0), orders: Number(row.orders) };
  }

  /** The run's orders by request id: what the stock's moves are checked against, a page at a time. */
  runOrders(productId: number, runId: string): RunOrders {
    const byRequest = (rows: { request_id: string; quantity: number }[]) => new Map(rows.map((row) => [row.request_id, Number(row.quantity)]));
    const run = 'product_id = ? AND run_id = ? AND request_id IS NOT NULL';
    const dataSource = this.dataSource;
    return {
      of: async (requestIds) => byRequest(await dataSource.query(`SELECT request_id, quantity FROM orders WHERE ${run} AND request_id IN (?)`, [productId, runId, requestIds])),
      async count() {
        const [row]: { orders: string }[] = await dataSource.query(`SELECT COUNT(*) AS orders FROM orders WHERE ${run}`, [productId, runId]);
        return Number(row.orders);
      },
      // Keyset on the primary key, which the (product_id, run_id) index holds in order: no page re-sorts the run.
      async *pages() {
        for (let after = 0; ; ) {
          const rows: { id: string; request_id: string; quantity: number }[] = await dataSource.query(
            `SELECT id, request_id, quantity FROM orders WHERE ${run} AND id > ? ORDER BY id LIMIT ${ORDERS_PAGE}`,
            [productId, runId, after],
          );
          if (rows.length) yield byRequest(rows);
          if (rows.length < ORDERS_PAGE) return;
          after = Number(rows[rows.length - 1].id);
        }
      },
    };
  }
}

/** The batch INSERT of `rows` queued orders, kept by number of rows (at most the writers' batch limit). */
const queuedInserts = new Map<number, string>();
function queuedInsert(rows: number): string {
  let sql = queuedInserts.get(rows);
  if (!sql) {
    const columns = 'product_id, quantity, strategy, run_id, idempotency_key, request_id, instance_id, created_at';
    sql = `INSERT INTO orders (${columns}) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ON DUPLICATE KEY UPDATE request_id = request_id`;
    queuedInserts.set(rows, sql);
  }
  return sql;
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
