import type { ProductRunSettings } from '@oversell/contracts';

/**
 * The Redis keys of one product. The product id sits in a hash tag ({p42}) so that all keys of a
 * product land in one slot if the lab is ever pointed at a Redis Cluster: Lua scripts may only
 * touch keys of one slot.
 */
export class StockKeys {
  constructor(
    private readonly prefix: string,
    readonly productId: number,
  ) {}

  /** The settings of the product's current run (which run, which strategy, TTL, delay). */
  get settings(): string {
    return `${this.prefix}:{p${this.productId}}:settings`;
  }

  /** Every key of the product, for a reset that must leave nothing of an earlier run behind. */
  pattern(): string {
    return `${this.prefix}:{p${this.productId}}:*`;
  }

  /** The keys of one run's stock store. */
  run(runId: string): RunStockKeys {
    return new RunStockKeys(`${this.prefix}:{p${this.productId}}:${runId}`);
  }

  static of(prefix: string, settings: Pick<ProductRunSettings, 'productId' | 'runId'>): RunStockKeys {
    return new StockKeys(prefix, settings.productId).run(settings.runId);
  }

  /**
   * The set of the lab's order streams (orderWrite 'stream') that may hold orders: what the stream
   * writers read. Outside any product's hash tag, so on one Redis only (see OrderStreamWriter).
   */
  static orderStreams(prefix: string): string {
    return `${prefix}:order-streams`;
  }
}

/**
 * Stock and lock keys carry the run id: an instance still holding an earlier run's settings finds
 * no such keys (not seeded) instead of selling from the new run's stock under the old run's name.
 */
export class RunStockKeys {
  constructor(private readonly base: string) {}

  get stock(): string {
    return `${this.base}:stock`;
  }
  get lock(): string {
    return `${this.base}:lock`;
  }
  /** What each request did to the stock (took, gave back), by request id: makes a re-sent take or give-back a no-op. */
  get moves(): string {
    return `${this.base}:moves`;
  }
  /** The run's orders as its take scripts appended them (orderWrite 'stream'), until a stream writer has inserted them. */
  get orders(): string {
    return `${this.base}:orders`;
  }
  /** Orders whose write MySQL could not confirm nor deny, settled once it answers (LateSettlements). */
  get settlements(): string {
    return `${this.base}:settlements`;
  }
  segment(index: number): string {
    return `${this.base}:segment:${index}`;
  }
  segmentLock(index: number): string {
    return `${this.base}:segment:${index}:lock`;
  }
}
