import { MysqlRowStrategy } from '../../compose/mysql-row-strategy';
import { READ_STOCK } from '../../compose/mysql-stock-row';
import { sqlScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { loadSqlFile } from '../../persistence/sql-file';
import type { DeductContext, DeductResult } from '../../stock-strategy';

const TAKE_STOCK_IF_ENOUGH = loadSqlFile(__dirname, 'take-stock-if-enough.sql');

/**
 * The database's atomic decrement: UPDATE … SET stock = stock − n WHERE id = ? AND run_id = ? AND
 * stock >= n, and the order INSERT, in one transaction. InnoDB evaluates the condition on the latest
 * committed row under the row lock the UPDATE takes, so the check and the decrement are one step:
 * there is no version to go stale and nothing to retry (the cure for db-optimistic's retry storm).
 *
 * The business runs before the transaction, so the row lock is held only for the UPDATE, the INSERT
 * and the commit; lua-decrement likewise keeps it outside its atomic step. Run between the UPDATE and
 * the INSERT, it would hold the row lock for the business time, which is db-pessimistic.
 *
 * Guarantees: never oversells; stock and order commit together, or neither does.
 *
 * Fails like this: orders of one product still queue on the row lock for UPDATE + INSERT + commit,
 * which caps throughput below Redis's atomic decrement. Every order spends the business time before it
 * learns whether stock is left, sold-out answers included. A transaction that stalls while holding the
 * row makes the others wait up to innodb_lock_wait_timeout; a wait timeout or a deadlock is rolled
 * back and answered lock_timeout.
 */
class DbConditionalStrategy extends MysqlRowStrategy {
  readonly name = 'db-conditional' as const;

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { productId, runId } = context.settings;
    const units = context.quantity;
    await context.faults.at('stock-read');
    return this.row.sell(context, async (manager) => {
      const taken: { affectedRows: number } = await manager.query(TAKE_STOCK_IF_ENOUGH.sql, [units, productId, runId, units]);
      if (taken.affectedRows > 0) return 'taken';
      // The WHERE matched nothing: a row short of stock, or no row for this run at all.
      if ((await this.row.remaining(context.settings, manager)) === null) throw new StockNotSeededError(productId);
      return { outcome: 'sold_out' };
    });
  }
}

export const dbConditional: StrategyDefinition<'db-conditional'> = { name: 'db-conditional', scripts: sqlScriptsOf(TAKE_STOCK_IF_ENOUGH, READ_STOCK), create: (deps) => new DbConditionalStrategy(deps.dataSource) };
