/**
 * Every Redis key of one product. The product id sits in a hash tag ({p42}) so that all keys of a
 * product land in one slot if the lab is ever pointed at a Redis Cluster: Lua scripts may only
 * touch keys of one slot.
 */
export class StockKeys {
  constructor(
    private readonly prefix: string,
    readonly productId: number,
  ) {}

  private key(suffix: string): string {
    return `${this.prefix}:{p${this.productId}}:${suffix}`;
  }

  get settings(): string {
    return this.key('settings');
  }
  get stock(): string {
    return this.key('stock');
  }
  get lock(): string {
    return this.key('lock');
  }
  segment(index: number): string {
    return this.key(`segment:${index}`);
  }
  segmentLock(index: number): string {
    return this.key(`segment:${index}:lock`);
  }
  /** Every key of the product, for a reset that must leave nothing of an earlier run behind. */
  pattern(): string {
    return `${this.prefix}:{p${this.productId}}:*`;
  }
}
