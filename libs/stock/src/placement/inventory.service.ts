import { Inject, Injectable } from '@nestjs/common';
import type { InventoryView } from '@oversell/contracts';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { OrderRecorder } from './order-recorder';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from '../store-errors';

/** Compares the two stores: what the strategy's store says is left, and what MySQL orders say was sold. */
@Injectable()
export class InventoryService {
  constructor(
    @Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry,
    private readonly settingsStore: ProductSettingsStore,
    private readonly recorder: OrderRecorder,
  ) {}

  async inventory(productId: number): Promise<InventoryView> {
    try {
      const settings = await this.settingsStore.get(productId);
      const [remaining, sold] = await Promise.all([
        this.registry.get(settings.strategy).remaining(settings),
        this.recorder.soldInRun(productId, settings.runId),
      ]);
      const left = remaining ?? 0;
      // An empty store says nothing of what was sold: for a run that was seeded, it means Redis lost it.
      const storeLost = remaining === null && (await this.settingsStore.seeded(settings));
      return {
        productId,
        runId: settings.runId,
        strategy: settings.strategy,
        initialStock: settings.initialStock,
        lockTtlMs: settings.lockTtlMs,
        businessDelayMs: settings.businessDelayMs,
        remaining: left,
        sold: sold.units,
        orders: sold.orders,
        oversold: Math.max(0, sold.units - settings.initialStock),
        storesAgree: remaining !== null && left >= 0 && left + sold.units === settings.initialStock,
        storeLost,
      };
    } catch (error) {
      throw asStoreError(error);
    }
  }
}
