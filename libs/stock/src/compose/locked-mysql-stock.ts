import type { ProductRunSettings, StrategyName, StrategyScript } from '@oversell/contracts';
import type { DistributedLock, LockHolding } from '@oversell/locks';
import { StockNotSeededError } from '../errors';
import { loadSqlFile } from '../persistence/sql-file';
import { StockKeys } from '../redis/stock-keys';
import type { DeductContext, DeductResult } from '../stock-strategy';
import { LockGuard } from './lock-guard';
import { MysqlStockFence } from './mysql-stock-fence';
import { MysqlRowStrategy } from './mysql-row-strategy';
import { READ_STOCK } from './mysql-stock-row';
import type { StrategyDefinition, StrategyDeps } from './strategy-definition';

const WRITE_STOCK = loadSqlFile(__dirname, 'write-stock.sql');

/** The statements the section runs on the product row, in order. */
export const LOCKED_MYSQL_STOCK_SQL = [READ_STOCK, WRITE_STOCK];

/** A lock an operator can also break by hand, whoever holds it (the lab's "break stale lock" action). */
export interface BreakableLock extends DistributedLock {
  breakLock(key: string): Promise<boolean>;
}

/**
 * "This lock around the MySQL stock row": SELECT the run's stock (no FOR UPDATE), check, business time,
 * then UPDATE the row to the value read minus n and INSERT the order, in one transaction. The write is a
 * plain one of what was read: the lock is all that keeps two orders apart, so a lock that lets two
 * holders in shows as a lost update and an oversell, as on Redis — unless the lock numbers its grants:
 * a holding with a fencing token reads and writes the row fenced, and a stale holder is refused
 * (outcome fenced, nothing taken).
 */
export class LockedMysqlStock extends MysqlRowStrategy {
  private readonly guard: LockGuard;
  private readonly keyPrefix: string;

  constructor(
    readonly name: StrategyName,
    private readonly lock: BreakableLock,
    deps: StrategyDeps,
  ) {
    super(deps.dataSource);
    this.guard = new LockGuard(lock, this.name, deps);
    this.keyPrefix = deps.options.keyPrefix;
  }

  /** The row was reset for the run; its fence starts again for the run's new lock. */
  override async prepare(settings: ProductRunSettings): Promise<void> {
    await MysqlStockFence.reset(this.row.dataSource.manager, settings);
  }

  async breakLocks(settings: ProductRunSettings): Promise<number> {
    return (await this.lock.breakLock(this.lockName(settings))) ? 1 : 0;
  }

  deduct(context: DeductContext): Promise<DeductResult> {
    return this.guard.run(this.lockName(context.settings), context, (holding) => this.readCheckWrite(context, holding));
  }

  /** The run's lock: the name the Redis locks give theirs, so a run's lock reads the same in every store. */
  private lockName(settings: ProductRunSettings): string {
    return StockKeys.of(this.keyPrefix, settings).lock;
  }

  private async readCheckWrite(context: DeductContext, holding: LockHolding): Promise<DeductResult> {
    const { productId, runId } = context.settings;
    const fence = holding.fencingToken === undefined ? undefined : new MysqlStockFence(holding.fencingToken, holding.token);
    const claimed = !fence || (await fence.claim(this.row.dataSource.manager, context.settings));
    const stock = await this.row.remaining(context.settings);
    if (stock === null) throw new StockNotSeededError(productId);
    if (!claimed) return { outcome: 'fenced' };
    if (stock < context.quantity) return { outcome: 'sold_out' };
    await context.faults.at('stock-read', stock);
    const left = stock - context.quantity;
    return this.row.sell(
      context,
      async (manager) => {
        if (fence && !(await fence.write(manager, context.settings, left))) {
          context.faults.note({ target: 'stock', action: 'SET', value: left, note: 'fenced' });
          return { outcome: 'fenced' };
        }
        if (!fence) await manager.query(WRITE_STOCK.sql, [left, productId, runId]);
        return 'taken';
      },
      left,
    );
  }
}

/** A registry row for a breakable lock around the MySQL stock row. */
export function lockedMysqlStock<Name extends StrategyName>(name: Name, scripts: readonly StrategyScript[], lock: (deps: StrategyDeps) => BreakableLock): StrategyDefinition<Name> {
  return { name, scripts, create: (deps) => new LockedMysqlStock(name, lock(deps), deps) };
}
