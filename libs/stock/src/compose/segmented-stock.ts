import type { ProductRunSettings, StrategyName } from '@oversell/contracts';
import { LocalQueues, RELEASE_LOCK, type DistributedLock } from '@oversell/locks';
import { StockNotSeededError } from '../errors';
import { readCheckWrite } from '../redis/redis-stock';
import type { StockMovesRead } from '../request-moves';
import type { DeductContext, DeductResult, StockStrategy, StrategyOrderStreams } from '../stock-strategy';
import { LockGuard } from './lock-guard';
import { luaScriptsOf } from './scripts-of';
import type { SegmentCell, SegmentStore } from './segment-store';
import type { StrategyDeps } from './strategy-definition';

/** The segment locks' release script: segmented and segmented-cluster send it. */
export const SEGMENT_LOCK_SCRIPTS = luaScriptsOf(RELEASE_LOCK);

/**
 * The stock is split over N keys, each behind its own owner-token lock, so N orders can be inside at
 * once instead of one. Within a process, orders line up per segment (the shortest line first), so only
 * one of them per process spins on each Redis lock. An order moves on when its segment cannot cover
 * it; it is sold out only when no segment can. Where the segments live is the store's business (one
 * Redis, or a Redis Cluster).
 */
export class SegmentedStrategy implements StockStrategy {
  /** This process's line per segment lock: only the head of each line competes on Redis. */
  private readonly lines = new LocalQueues();
  private readonly guard: LockGuard;

  constructor(
    private readonly deps: StrategyDeps,
    private readonly store: SegmentStore,
    /** The owner-token lock on the store's connection. */
    lock: DistributedLock,
    readonly name: StrategyName,
  ) {
    this.guard = new LockGuard(lock, this.name, deps);
  }

  /** Each segment's take appends its order in the script that writes the segment, to the stream under its tag. */
  readonly streamsOrders = true;

  get orderStreams(): StrategyOrderStreams | undefined {
    return this.store.orderStreams;
  }

  async prepare(settings: ProductRunSettings): Promise<void> {
    const base = Math.floor(settings.initialStock / settings.segments);
    const extra = settings.initialStock % settings.segments;
    await this.store.seed(await this.store.cells(settings), Array.from({ length: settings.segments }, (_, i) => base + (i < extra ? 1 : 0)));
  }

  async remaining(settings: ProductRunSettings): Promise<number | null> {
    const values = await this.store.read(await this.store.cells(settings));
    return values.some((v) => v === null) ? null : values.reduce((sum, v) => sum + Number(v), 0);
  }

  async moves(settings: ProductRunSettings): Promise<StockMovesRead> {
    return this.store.moves(await this.store.cells(settings));
  }

  async breakLocks(settings: ProductRunSettings): Promise<number> {
    return this.store.breakLocks(await this.store.cells(settings));
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const cells = await this.store.cells(context.settings);
    // An unlocked read is only a hint, but a safe one: stock only goes down during a run (except when a
    // failed order write gives units back), so a segment seen short is skipped. The worst a give-back
    // racing this read can do is an early sold_out — never an oversell. Sold out costs one read, no lock.
    const values = await this.store.read(cells);
    if (values.some((v) => v === null)) throw new StockNotSeededError(context.settings.productId);
    const candidates = values.flatMap((v, i) => (Number(v) >= context.quantity ? [i] : []));
    if (candidates.length === 0) return { outcome: 'sold_out' };

    const exhausted = new Set<number>();
    const deadline = Date.now() + this.deps.options.lockWaitTimeoutMs;
    for (;;) {
      const open = candidates.filter((i) => !exhausted.has(i));
      if (open.length === 0) return { outcome: 'sold_out' };
      const index = this.shortestLine(open, cells);
      const cell = cells[index];
      const result = await this.lines.run(cell.lock, Math.max(0, deadline - Date.now()), () =>
        this.guard.run(cell.lock, context, (holding) => readCheckWrite(this.store.redis, cell, context, holding), Math.max(0, deadline - Date.now())),
      );
      if (result === null) return { outcome: 'lock_timeout' };
      if (result.outcome !== 'sold_out') return result;
      exhausted.add(index);
    }
  }

  /** The segment with the fewest of this process's orders in line (ties broken at random), so orders spread out. */
  private shortestLine(open: readonly number[], cells: readonly SegmentCell[]): number {
    let best: number[] = [];
    let shortest = Infinity;
    for (const index of open) {
      const length = this.lines.length(cells[index].lock);
      if (length < shortest) [best, shortest] = [[index], length];
      else if (length === shortest) best.push(index);
    }
    return best[Math.floor(Math.random() * best.length)];
  }
}
