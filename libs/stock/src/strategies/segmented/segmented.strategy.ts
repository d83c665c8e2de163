import { Injectable } from '@nestjs/common';
import type { ProductRunSettings, StrategyDescription } from '@oversell/contracts';
import { TokenLockStrategy } from '../../locks/token-lock.strategy';
import { StockNotSeededError } from '../../placement/errors';
import { readCheckWrite } from '../../redis/redis-stock';
import type { DeductContext, DeductResult } from '../../stock-strategy';
import { LUA_SCRIPTS } from '../lua-scripts';

/** How long an order queues on one busy segment before it sweeps the others again. */
const SWEEP_WAIT_MS = 200;

/**
 * The stock is split over N keys, each behind its own owner-token lock, so N orders can be inside at
 * once instead of one. An order starts at a random segment and moves on when that segment's lock is
 * busy or its stock cannot cover the order; it is sold out only when every segment is.
 */
@Injectable()
export class SegmentedStrategy extends TokenLockStrategy {
  readonly name = 'segmented' as const;

  async prepare(settings: ProductRunSettings): Promise<void> {
    const keys = this.keys(settings);
    const base = Math.floor(settings.initialStock / settings.segments);
    const extra = settings.initialStock % settings.segments;
    const seeds = Array.from({ length: settings.segments }, (_, i) => [keys.segment(i), base + (i < extra ? 1 : 0)]);
    await this.redis.mset(Object.fromEntries(seeds));
  }

  async remaining(settings: ProductRunSettings): Promise<number | null> {
    const values = await this.redis.mget(this.segmentKeys(settings));
    return values.some((v) => v === null) ? null : values.reduce((sum, v) => sum + Number(v), 0);
  }

  private segmentKeys(settings: ProductRunSettings): string[] {
    const keys = this.keys(settings);
    return Array.from({ length: settings.segments }, (_, i) => keys.segment(i));
  }

  async deduct(context: DeductContext): Promise<DeductResult> {
    const keys = this.keys(context.settings);
    // An unlocked read is only a hint, but a safe one for skipping: stock only goes down during a run,
    // so a segment seen short now is short for good. Sold out costs one MGET and no lock.
    const values = await this.redis.mget(this.segmentKeys(context.settings));
    if (values.some((v) => v === null)) throw new StockNotSeededError(context.settings.productId);
    const candidates = values.flatMap((v, i) => (Number(v) >= context.quantity ? [i] : []));
    if (candidates.length === 0) return { outcome: 'sold_out' };

    const exhausted = new Set<number>();
    const attempt = (index: number, waitMs: number) =>
      this.withLock(keys.segmentLock(index), context, (holding) => readCheckWrite(this.redis, keys.segment(index), context, holding.signal), waitMs);
    const deadline = Date.now() + this.options.lockWaitTimeoutMs;
    const start = Math.floor(Math.random() * candidates.length);
    for (;;) {
      // First a sweep that takes any free segment (wait 0: a busy one is skipped, not waited for)…
      for (let step = 0; step < candidates.length; step++) {
        const index = candidates[(start + step) % candidates.length];
        if (exhausted.has(index)) continue;
        const result = await attempt(index, 0);
        if (result.outcome === 'sold_out') exhausted.add(index);
        else if (result.outcome !== 'lock_timeout') return result;
      }
      const open = candidates.filter((i) => !exhausted.has(i));
      if (open.length === 0) return { outcome: 'sold_out' };
      const left = deadline - Date.now();
      if (left <= 0) return { outcome: 'lock_timeout' };
      // …then, all busy, queue on one of them like a spin lock (backoff with jitter) rather than
      // sweeping again at once: 500 clients re-sweeping 5 locks in a tight loop would burn the CPU.
      const queued = open[Math.floor(Math.random() * open.length)];
      const result = await attempt(queued, Math.min(left, SWEEP_WAIT_MS));
      if (result.outcome === 'sold_out') exhausted.add(queued);
      else if (result.outcome !== 'lock_timeout') return result;
    }
  }

  describe(): StrategyDescription {
    return {
      name: this.name,
      title: 'Segmented stock',
      kind: 'lock',
      store: 'redis',
      safe: true,
      description: 'Splits the stock over N Redis keys (default 5), each guarded by its own owner-token lock. An order takes one free segment with enough stock, moving on when a segment is busy or empty.',
      guarantee: 'Never oversells while business time < TTL: each segment is an owner-token lock (Lua release) over its own stock key. Up to N orders proceed in parallel.',
      pitfall:
        'Each segment lock has the same lease pitfall as uuid-lua (business delay > TTL double-grants a segment). And fragmentation: an order for more units than any single segment holds is refused although the total would cover it.',
      reproduce: 'Business delay > lock TTL oversells per segment; an order of 3 units when each segment holds 2 shows fragmentation.',
      steps: ['MGET every segment (unlocked): the ones short of n are skipped; none left means sold out', 'pick a random remaining segment', 'SET segment-lock <token> NX PX ttl; if busy, try the next segment', 'GET segment stock; if < n, mark it exhausted and try the next', 'business delay', 'SET segment stock − n', 'INSERT the order', 'release the segment lock (Lua compare-and-delete)', 'sold out when every segment is exhausted'],
      scripts: [{ name: LUA_SCRIPTS.releaseLock.fileName, language: 'lua', source: LUA_SCRIPTS.releaseLock.lua }],
    };
  }
}
