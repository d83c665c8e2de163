import { MysqlRowStrategy } from '../../compose/mysql-row-strategy';
import { sqlScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { loadSqlFile } from '../../persistence/sql-file';
import type { DeductContext, DeductResult } from '../../stock-strategy';

const BOUND_LOCK_WAIT = loadSqlFile(__dirname, 'bound-lock-wait.sql');
const LOCK_STOCK_ROW = loadSqlFile(__dirname, 'lock-stock-row.sql');
const TAKE_STOCK = loadSqlFile(__dirname, 'take-stock.sql');

/**
 * Pessimistic locking in the database: one transaction locks the product row with SELECT … FOR UPDATE,
 * checks the stock, does the business, decrements and inserts the order, and commits, which releases
 * the row lock.
 *
 * Guarantees: never oversells. InnoDB grants the row lock to one transaction at a time and keeps it
 * until commit, so the stock read under it cannot go stale; stock and order commit together; a holder
 * whose connection dies is rolled back by the server, which frees the lock with nothing taken.
 *
 * Fails like this: every order of a product serializes on the database for its whole business time,
 * each holding a pooled connection while it holds or waits for the lock, so throughput is capped at one
 * order per business time plus round trips, and a holder paused inside (GC, a slow call) blocks every
 * order queued behind it. An order that waits longer than the lab's lock wait, or that InnoDB picks as
 * a deadlock victim, is rolled back and answered lock_timeout.
 */
class DbPessimisticStrategy extends MysqlRowStrategy {
  readonly name = 'db-pessimistic' as const;
  private readonly lockWaitTimeoutMs: number;

  constructor(deps: StrategyDeps) {
    super(deps.dataSource);
    this.lockWaitTimeoutMs = deps.options.lockWaitTimeoutMs;
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { productId, runId } = context.settings;
    const units = context.quantity;
    // Queueing for a pooled connection is waiting for this lock too: the pool's connections are the
    // ones holding it or queued for it. So the lab's wait counts from here.
    const deadline = Date.now() + this.lockWaitTimeoutMs;
    return this.row.sell(context, async (manager) => {
      const waitSeconds = lockWaitSecondsLeft(deadline);
      if (waitSeconds === 0) return { outcome: 'lock_timeout' };
      // A session variable: it stays on the pooled connection, where any later row-lock wait is bounded
      // by the same lab setting, which is the bound it should have anyway. Sent before the lock is taken,
      // so it costs a round trip, not time under the lock.
      await manager.query(BOUND_LOCK_WAIT.sql, [waitSeconds]);
      const rows: { stock: number }[] = await manager.query(LOCK_STOCK_ROW.sql, [productId, runId]);
      if (!rows.length) throw new StockNotSeededError(productId);
      await context.faults.at('lock-acquired');
      if (Number(rows[0].stock) < units) return { outcome: 'sold_out' };
      await context.faults.at('stock-read');
      await manager.query(TAKE_STOCK.sql, [units, productId, runId]);
      return 'taken';
    });
  }
}

/**
 * innodb_lock_wait_timeout takes whole seconds only, so what is left of the lab's wait is rounded up:
 * the database never refuses an order sooner than a Redis lock strategy with the same setting would,
 * at the price of waiting up to a second longer. 0 means nothing is left.
 */
function lockWaitSecondsLeft(deadline: number): number {
  const leftMs = deadline - Date.now();
  return leftMs > 0 ? Math.ceil(leftMs / 1000) : 0;
}

export const dbPessimistic: StrategyDefinition<'db-pessimistic'> = { name: 'db-pessimistic', scripts: sqlScriptsOf(BOUND_LOCK_WAIT, LOCK_STOCK_ROW, TAKE_STOCK), create: (deps) => new DbPessimisticStrategy(deps) };
