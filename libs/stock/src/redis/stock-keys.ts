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
 * Built once (a store keeps one per run: RedisStockStore.keys), so an order builds no key names.
 */
export class RunStockKeys {
  readonly stock: string;
  readonly lock: string;
  /** What each request did to the stock (took, gave back), by request id: makes a re-sent take or give-back a no-op. */
  readonly moves: string;
  /** The run's orders as its take scripts appended them (orderWrite 'stream'), until a stream writer has inserted them. */
  readonly orders: string;
  /** Orders whose write MySQL could not confirm nor deny, settled once it answers (LateSettlements). */
  readonly settlements: string;

  constructor(private readonly base: string) {
    this.stock = `${base}:stock`;
    this.lock = `${base}:lock`;
    this.moves = `${base}:moves`;
    this.orders = `${base}:orders`;
    this.settlements = `${base}:settlements`;
  }

  segment(index: number): string {
    return `${this.base}:segment:${index}`;
  }
  segmentLock(index: number): string {
    return `${this.base}:segment:${index}:lock`;
  }
}
