import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BrokenLocksView } from '@oversell/contracts';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from '../store-errors';

/**
 * The lab's "break stale lock" action: what an operator does by hand when a holder died and left a
 * lock that never expires (setnx-no-ttl, setnx-expire). Explicit and logged, because it also takes
 * the lock from a holder that is still alive.
 */
@Injectable()
export class LockBreakerService {
  private readonly logger = new Logger(LockBreakerService.name);

  constructor(
    @Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry,
    private readonly settingsStore: ProductSettingsStore,
  ) {}

  /** Deletes the lock(s) of the product's current run, whoever holds them; 0 for a strategy with no lock. */
  async breakStaleLocks(productId: number): Promise<BrokenLocksView> {
    try {
      const settings = await this.settingsStore.fresh(productId);
      const strategy = this.registry.get(settings.strategy);
      const broken = (await strategy.breakLocks?.(settings)) ?? 0;
      this.logger.warn(`broke ${broken} lock(s) of product ${productId}, run ${settings.runId}, strategy ${strategy.name}`);
      return { productId, runId: settings.runId, strategy: strategy.name, broken };
    } catch (error) {
      throw asStoreError(error);
    }
  }
}
