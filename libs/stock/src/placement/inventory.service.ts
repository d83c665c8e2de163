import { Inject, Injectable } from '@nestjs/common';
import { strategyEntry, unitsSoldTwice, type InventoryView, type ProductRunSettings, type StockMovesAudit } from '@oversell/contracts';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { LateSettlements } from './late-settlements';
import { OrderRecorder } from './order-recorder';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from '../store-errors';
import type { StockMovesRead } from '../request-moves';
import { auditStockMoves } from './audit-stock-moves';
import { unitsUnaccounted } from './units-unaccounted';

/** Compares the two stores: what the strategy's store says is left, and what MySQL orders say was sold. */
@Injectable()
export class InventoryService {
  constructor(
    @Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry,
    private readonly settingsStore: ProductSettingsStore,
    private readonly recorder: OrderRecorder,
    private readonly settlements: LateSettlements,
  ) {}

  /**
   * The inventory once the run's late settlements are done (or `timeoutMs` passed): a take still waiting
   * for MySQL to say whether its order landed would otherwise read as lost.
   */
  async settledInventory(productId: number, timeoutMs: number): Promise<InventoryView> {
    try {
      await this.settlements.drained(await this.settingsStore.get(productId), timeoutMs);
    } catch (error) {
      throw asStoreError(error);
    }
    return this.inventory(productId);
  }

  async inventory(productId: number): Promise<InventoryView> {
    try {
      const settings = await this.settingsStore.get(productId);
      const strategy = this.registry.get(settings.strategy);
      const [remaining, sold, moves, settledLate] = await Promise.all([
        strategy.remaining(settings),
        this.recorder.soldInRun(productId, settings.runId),
        strategy.moves ? this.auditMoves(strategy.moves(settings), settings) : null,
        this.settlements.of(settings),
      ]);
      const left = remaining ?? 0;
      // An empty store says nothing of what was sold: for a run that was seeded, it means Redis lost it.
      const storeLost = remaining === null && (await this.settingsStore.seeded(settings));
      const { lost, lostUpdates } = unitsUnaccounted(settings.initialStock, left, sold.units, moves);
      const byId = !moves || (moves.takenWithoutOrder.count === 0 && moves.orderedWithoutTake.count === 0 && moves.takenTwice.count === 0);
      const oversold = Math.max(0, sold.units - settings.initialStock);
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
        oversold,
        storesAgree: remaining !== null && left >= 0 && left + sold.units === settings.initialStock && byId && lost === 0 && lostUpdates === 0,
        lost,
        lostUpdates,
        soldTwice: unitsSoldTwice({ oversold, lostUpdates, storeLost }),
        settledLate,
        moves,
        storeLost,
      };
    } catch (error) {
      throw asStoreError(error);
    }
  }

  private async auditMoves(moves: Promise<StockMovesRead>, settings: ProductRunSettings): Promise<StockMovesAudit> {
    return auditStockMoves(await moves, this.recorder.runOrders(settings.productId, settings.runId), { oneCell: !strategyEntry(settings.strategy).settings.includes('segments') || settings.segments <= 1 });
  }
}
