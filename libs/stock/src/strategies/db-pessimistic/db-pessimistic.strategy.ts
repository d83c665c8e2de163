import type { StrategyDescription } from '@oversell/contracts';
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

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'DB pessimistic (SELECT … FOR UPDATE)',
      kind: 'database',
      store: 'mysql',
      settings: ['businessDelayMs'],
      lease: 'none',
      safe: true,
      description:
        'Opens a transaction and locks the product row with SELECT stock … FOR UPDATE; checks the stock, does the business, runs UPDATE … SET stock = stock − n and the order INSERT, and commits, which releases the row lock. Concurrent orders queue for the row lock inside InnoDB, each waiting at most the lab\'s lock wait.',
      guarantee:
        'Never oversells: InnoDB grants the row lock to one transaction at a time and holds it until commit, so the stock read under it cannot go stale, and stock and order commit together. A holder whose connection dies is rolled back by the server, releasing the lock with nothing taken.',
      pitfall:
        'The row lock is held for the whole business time, so every order of a product serializes on the database: at most 1000 / (business delay in ms) orders/s, and below db-conditional even with no business delay, each holding a pooled connection meanwhile; a holder that pauses inside blocks everyone behind it. Orders that wait longer than the lock wait (whole seconds for InnoDB), or that a deadlock picks as its victim, are rolled back and answered lock_timeout.',
      reproduce: 'Raise the business delay or pause one holder at stock-read (see its test): every other order of the product waits on the row lock.',
      symptom:
        'Oversold stays 0; throughput sits far below db-conditional and falls as the business delay grows, p99 latency climbs with the connections, and long waits show as "lock timeout" in the outcome counts. The lock timeline stays empty: the row lock lives in InnoDB, not in Redis.',
      steps: [
        'BEGIN; SET SESSION innodb_lock_wait_timeout = the wait left (whole seconds)',
        'SELECT stock … FOR UPDATE (waits for the row lock)',
        'if no row: not seeded; if stock < n: sold out',
        'business delay (holding the row lock)',
        'UPDATE … SET stock = stock − n',
        'INSERT the order; COMMIT (releases the row lock)',
        'lock wait timeout or deadlock: ROLLBACK, lock timeout',
      ],
      choice: {
        runsOn: 'MySQL/MariaDB only',
        complexity: 'low: SELECT … FOR UPDATE inside a transaction',
        reliability: 'never oversells: the row lock lives and dies with the transaction',
        underFault: {
          crash: 'The connection closes and InnoDB rolls the transaction back, freeing the row lock at once.',
          pause: 'The row stays locked while the holder is paused; the others wait (bounded by the lock wait timeout); nothing is sold twice.',
          'store-cut': 'The transaction dies with its connection and is rolled back: the order fails, nothing is written.',
          failover: 'As safe as the database: stock and order commit together or not at all.',
        },
      },
      scripts: sqlScriptsOf(BOUND_LOCK_WAIT, LOCK_STOCK_ROW, TAKE_STOCK),
    };
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

export const dbPessimistic: StrategyDefinition = { name: 'db-pessimistic', create: (deps) => new DbPessimisticStrategy(deps) };
