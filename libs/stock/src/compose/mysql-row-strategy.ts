import type { ProductRunSettings, StrategyName } from '@oversell/contracts';
import type { DataSource } from 'typeorm';
import type { DeductContext, DeductResult, StockStrategy } from '../stock-strategy';
import { MysqlStockRow } from './mysql-stock-row';

/** A strategy whose store is the MySQL product row: nothing to seed, and the row says what is left. */
export abstract class MysqlRowStrategy implements StockStrategy {
  abstract readonly name: StrategyName;
  protected readonly row: MysqlStockRow;

  constructor(dataSource: DataSource) {
    this.row = new MysqlStockRow(dataSource);
  }

  /** The reset has written the row (stock, run id); there is nothing else to seed. */
  async prepare(_settings: ProductRunSettings): Promise<void> {}

  remaining(settings: ProductRunSettings): Promise<number | null> {
    return this.row.remaining(settings);
  }

  abstract deduct(context: DeductContext): Promise<DeductResult>;
}
