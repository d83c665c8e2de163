import type { ProductRunSettings } from '@oversell/contracts';
import type { EntityManager } from 'typeorm';
import { loadSqlFile } from '../persistence/sql-file';

const CLAIM_FENCE = loadSqlFile(__dirname, 'claim-fence.sql');
const WRITE_STOCK_FENCED = loadSqlFile(__dirname, 'write-stock-fenced.sql');
const RESET_FENCE = loadSqlFile(__dirname, 'reset-fence.sql');

/** The statements of the fenced row, in the order a holder runs them, and the reset's. */
export const MYSQL_STOCK_FENCE_SQL = [CLAIM_FENCE, WRITE_STOCK_FENCED, RESET_FENCE];

type RowOf = Pick<ProductRunSettings, 'productId' | 'runId'>;

/**
 * The product row as a fenced store (Kleppmann): its `fence` column keeps the highest fencing token
 * that has reached the row. A holder claims the row with its token before reading the stock and
 * writes the stock only while no higher token has claimed it — a conditional UPDATE whose affected
 * rows say whether it was refused. Claiming at the read, not only at the write, is what makes the
 * read-check-write safe: a stale holder's write landing after a newer holder's read would otherwise
 * be overwritten from the same stock (a lost update). The driver counts matched rows (FOUND_ROWS),
 * so a claim with the token already there counts as accepted.
 */
export class MysqlStockFence {
  constructor(private readonly fencingToken: number) {}

  /** True when the row now carries this token; false when a higher one had reached it (or no such row). */
  async claim(manager: EntityManager, row: RowOf): Promise<boolean> {
    return affected(await manager.query(CLAIM_FENCE.sql, [this.fencingToken, row.productId, row.runId, this.fencingToken]));
  }

  /** True when the stock was written; false when a higher token had reached the row (nothing written). */
  async write(manager: EntityManager, row: RowOf, stock: number): Promise<boolean> {
    return affected(await manager.query(WRITE_STOCK_FENCED.sql, [stock, this.fencingToken, row.productId, row.runId, this.fencingToken]));
  }

  /** A new run's tokens start again at 1 (its lock key is new): the row forgets the last run's highest. */
  static async reset(manager: EntityManager, row: RowOf): Promise<void> {
    await manager.query(RESET_FENCE.sql, [row.productId, row.runId]);
  }
}

function affected(result: { affectedRows: number }): boolean {
  return result.affectedRows > 0;
}
