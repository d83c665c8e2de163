import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlacedOrder, ProductRunSettings, SettledLate } from '@oversell/contracts';
import { RedisConnections } from '../redis/redis-connections';
import { StockKeys } from '../redis/stock-keys';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';

/** How often the orders MySQL could not answer for are asked about again. */
export const SETTLE_RETRY_MS = 250;

/** One order whose INSERT failed without saying whether it landed, while MySQL could not be asked either. */
export interface UnsettledOrder {
  settings: Pick<ProductRunSettings, 'productId' | 'runId'>;
  /** Whether the INSERT landed (it kills the INSERT's server connection first); rejects while MySQL is away. */
  recorded(): Promise<PlacedOrder | null>;
  /** Puts the order's units back (and lets go of what it claimed): it did not land. */
  giveBack(): Promise<void>;
}

/**
 * Settles, once MySQL answers again, the takes whose order MySQL could neither confirm nor deny when it
 * failed (an outage mid-INSERT): the units stay taken until then — giving them back while the order may
 * yet be there could sell them twice — and then are kept (the order landed) or given back (it did not).
 * Without this, a 3 s MySQL outage left a fifth of a sale's units taken with no order for good.
 *
 * The count of each run's pending, kept and given-back settlements lives in Redis beside its stock, so
 * the reconciliation (on any instance) can wait for them and report them. The pending orders themselves
 * are this process's: an instance that dies with some leaves them taken, and its run says so (pending).
 */
@Injectable()
export class LateSettlements implements OnModuleDestroy {
  private readonly logger = new Logger(LateSettlements.name);
  private readonly pending = new Set<UnsettledOrder>();
  private timer: NodeJS.Timeout | null = null;
  private settling = false;

  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
  ) {}

  /** Keeps the order's units taken until MySQL can say whether the order landed. */
  async add(order: UnsettledOrder): Promise<void> {
    await this.connections.commands.hincrby(this.key(order.settings), 'pending', 1);
    this.pending.add(order);
    this.timer ??= setInterval(() => void this.settle(), SETTLE_RETRY_MS).unref();
  }

  /**
   * Waits until none of the run's settlements is pending (on any instance) or `timeoutMs` passed, and
   * answers the counts then. MySQL back, each round settles every pending order in one pass.
   */
  async drained(settings: Pick<ProductRunSettings, 'productId' | 'runId'>, timeoutMs: number): Promise<SettledLate> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await this.of(settings);
      if (counts.pending <= 0 || Date.now() >= deadline) return counts;
      await sleep(SETTLE_RETRY_MS);
    }
  }

  /** The run's late settlements so far, on every instance. */
  async of(settings: Pick<ProductRunSettings, 'productId' | 'runId'>): Promise<SettledLate> {
    const counts = await this.connections.commands.hgetall(this.key(settings));
    return { pending: Number(counts.pending ?? 0), kept: Number(counts.kept ?? 0), givenBack: Number(counts.givenBack ?? 0) };
  }

  private key(settings: Pick<ProductRunSettings, 'productId' | 'runId'>): string {
    return StockKeys.of(this.options.keyPrefix, settings).settlements;
  }

  private async settle(): Promise<void> {
    if (this.settling) return;
    this.settling = true;
    try {
      for (const order of this.pending) {
        let outcome: 'kept' | 'givenBack';
        try {
          outcome = (await order.recorded()) ? 'kept' : 'givenBack';
          if (outcome === 'givenBack') await order.giveBack();
        } catch {
          // MySQL (or Redis) still away: ask again at the next round, the rest of this round too.
          return;
        }
        this.pending.delete(order);
        await this.connections.commands
          .multi()
          .hincrby(this.key(order.settings), 'pending', -1)
          .hincrby(this.key(order.settings), outcome, 1)
          .exec()
          .catch((error: unknown) => this.logger.warn(`settled order of run ${order.settings.runId}, not counted: ${error}`));
      }
    } finally {
      this.settling = false;
      if (!this.pending.size && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
