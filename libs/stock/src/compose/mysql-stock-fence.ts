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
 * that has reached the row, and `fence_holder` the holding that brought it. A holder claims the row
 * with its token before reading the stock and writes the stock only while no higher token has claimed
 * it — a conditional UPDATE whose affected rows say whether it was refused. Claiming at the read, not
 * only at the write, is what makes the read-check-write safe: a stale holder's write landing after a
 * newer holder's read would otherwise be overwritten from the same stock (a lost update).
 * An equal token is accepted only from the holding that brought it (the holder's own claim, then its
 * write): a lock service that loses grants, as a Redis failover loses the counter with the master,
 * issues a token twice, and the row then lets in the first of the two holders only. The driver counts
 * matched rows (FOUND_ROWS), so a holder's second claim of its own token counts as accepted.
 */
export class MysqlStockFence {
  /** `holder`: the holding's own token (LockHolding.token), unique to the grant. */
  constructor(
    private readonly fencingToken: number,
    private readonly holder: string,
  ) {}

  /** True when the row now carries this token; false when a higher one, or the same from another holder, had reached it (or no such row). */
  async claim(manager: EntityManager, row: RowOf): Promise<boolean> {
    return affected(await manager.query(CLAIM_FENCE.sql, [this.fencingToken, this.holder, row.productId, row.runId, ...this.admitted()]));
  }

  /** True when the stock was written; false when the claim would now be refused (nothing written). */
  async write(manager: EntityManager, row: RowOf, stock: number): Promise<boolean> {
    return affected(await manager.query(WRITE_STOCK_FENCED.sql, [stock, this.fencingToken, this.holder, row.productId, row.runId, ...this.admitted()]));
  }

  /** The parameters of `fence < token OR (fence = token AND fence_holder = holder)`. */
  private admitted(): [number, number, string] {
    return [this.fencingToken, this.fencingToken, this.holder];
  }

  /** A new run's tokens start again at 1 (its lock key is new): the row forgets the last run's highest. */
  static async reset(manager: EntityManager, row: RowOf): Promise<void> {
    await manager.query(RESET_FENCE.sql, [row.productId, row.runId]);
  }
}

function affected(result: { affectedRows: number }): boolean {
  return result.affectedRows > 0;
}
