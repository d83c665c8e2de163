import type { ProductRunSettings } from '@oversell/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { loadSqlFile } from '../persistence/sql-file';
import type { DeductContext, DeductResult } from '../stock-strategy';

export const READ_STOCK = loadSqlFile(__dirname, 'read-stock.sql');

/** InnoDB gave up waiting for a row lock (innodb_lock_wait_timeout), or broke a deadlock by rolling this transaction back. */
const ER_LOCK_WAIT_TIMEOUT = 1205;
const ER_LOCK_DEADLOCK = 1213;

/**
 * A product's stock as the MySQL row of its run: the reset writes it, so there is nothing to seed, and
 * the run id in every WHERE makes settings from an earlier run find no row instead of this run's stock.
 */
export class MysqlStockRow {
  constructor(readonly dataSource: DataSource) {}

  async remaining(settings: Pick<ProductRunSettings, 'productId' | 'runId'>, manager: EntityManager = this.dataSource.manager): Promise<number | null> {
    const rows: { stock: number }[] = await manager.query(READ_STOCK.sql, [settings.productId, settings.runId]);
    return rows.length ? Number(rows[0].stock) : null;
  }

  /**
   * One order in one transaction: `take` takes the stock with the transaction's manager (or answers
   * why it did not), then the order row is written in the same transaction, so stock and order commit
   * together or not at all. `left`: the stock the take wrote, when it wrote a whole value (for the trace).
   */
  async sell(context: DeductContext, take: (manager: EntityManager) => Promise<'taken' | Exclude<DeductResult, { outcome: 'sold' }>>, left?: number): Promise<DeductResult> {
    const result = await this.transaction(async (manager) => {
      const taken = await take(manager);
      if (taken !== 'taken') return taken;
      await context.faults.at('stock-written', left);
      return { outcome: 'sold', order: await context.record(manager) };
    });
    if (result.outcome === 'sold') await context.faults.at('order-recorded');
    return result;
  }

  /**
   * Runs `work` in one transaction. A row lock the database refused (wait timed out, or a deadlock
   * victim) is rolled back with nothing taken and answered lock_timeout: a refusal, not a failure of
   * the store.
   */
  async transaction(work: (manager: EntityManager) => Promise<DeductResult>): Promise<DeductResult> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      if (isRowLockRefusal(error)) return { outcome: 'lock_timeout' };
      throw error;
    }
  }
}

function isRowLockRefusal(error: unknown): boolean {
  const errno = ((error as { driverError?: { errno?: number } }).driverError ?? (error as { errno?: number }))?.errno;
  return errno === ER_LOCK_WAIT_TIMEOUT || errno === ER_LOCK_DEADLOCK;
}
