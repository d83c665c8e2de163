import type { ProductRunSettings } from '@oversell/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { sqlScriptsOf } from '../../compose/scripts-of';
import type { StrategyDefinition, StrategyDeps } from '../../compose/strategy-definition';
import { StockNotSeededError } from '../../errors';
import { loadSqlFile } from '../../persistence/sql-file';
import type { DeductContext, DeductResult, StockStrategy } from '../../stock-strategy';

const READ = loadSqlFile(__dirname, 'read-stock-and-version.sql');
const DEDUCT = loadSqlFile(__dirname, 'deduct-if-version-matches.sql');
const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 100;

/**
 * Optimistic concurrency on the MySQL product row: read stock and version without locking, then
 * UPDATE … WHERE version = <read version> AND stock >= n, and count the affected rows. 0 rows means
 * someone else won; read again after a jittered backoff, a bounded number of times. The UPDATE and the
 * order INSERT commit in one transaction, so stock and orders always agree.
 *
 * TypeORM's @VersionColumn would only check the version when reading; it does not make the UPDATE
 * conditional, so the statement is written out by hand (see the .sql files beside this one).
 */
class DbOptimisticStrategy implements StockStrategy {
  readonly name = 'db-optimistic' as const;
  private readonly dataSource: DataSource;
  private readonly maxAttempts: number;
  readonly businessDelaysPerOrder: number;

  constructor(deps: StrategyDeps) {
    this.dataSource = deps.dataSource;
    this.maxAttempts = this.businessDelaysPerOrder = deps.options.optimisticMaxAttempts;
  }

  /** Nothing to seed: the product row the reset writes (stock, version 0, run id) is this strategy's store. */
  async prepare(): Promise<void> {}

  async remaining(settings: ProductRunSettings): Promise<number | null> {
    const rows: { stock: number }[] = await this.dataSource.query(READ.sql, [settings.productId, settings.runId]);
    return rows.length ? Number(rows[0].stock) : null;
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const { productId, runId } = context.settings;
    const units = context.quantity;
    let conflicts = 0;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      // The run id in the WHERE: settings from an earlier run find no row instead of selling this run's stock.
      const rows: { stock: number; version: number }[] = await this.dataSource.query(READ.sql, [productId, runId]);
      if (!rows.length) throw new StockNotSeededError(productId);
      const { stock, version } = rows[0];
      if (stock < units) return { outcome: 'sold_out', conflicts };
      await context.faults.at('stock-read', stock);
      const order = await this.dataSource.transaction(async (manager) => {
        const result: { affectedRows: number } = await manager.query(DEDUCT.sql, [units, productId, runId, version, units]);
        if (result.affectedRows === 0) {
          // A failed version check, for the retry storm's trace: the version this order read, 0 rows affected.
          context.faults.note({ target: 'stock', action: 'UPDATE', value: 0, note: `version:${version}` });
          return null;
        }
        await context.faults.at('stock-written', stock - units);
        return context.record(manager);
      });
      if (order) {
        await context.faults.at('order-recorded');
        return { outcome: 'sold', order, conflicts };
      }
      conflicts++;
      // Full jitter: competing retries spread out instead of colliding again on the same row.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt));
    }
    return { outcome: 'conflict', conflicts };
  }
}

export const dbOptimistic: StrategyDefinition<'db-optimistic'> = { name: 'db-optimistic', scripts: sqlScriptsOf(READ, DEDUCT), create: (deps) => new DbOptimisticStrategy(deps) };
