import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CreateOrderRequest, ProductRunSettings } from '@oversell/contracts';
import { randomUUID } from 'node:crypto';
import type { DeductResult } from '../stock-strategy';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { DuplicateIdempotencyKeyError, StrategyMismatchError } from './errors';
import { IdempotencyKeys } from './idempotency-keys';
import { FAULT_HOOKS, faultPointsFor, type FaultHook } from './fault-points';
import { OrderRecorder } from './order-recorder';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from './store-errors';

/**
 * The outcome of one order for a known product run. A store failure after the run is known is an
 * outcome too ('error'), so the run's figures count it; failures before that (bad product, wrong
 * strategy) are thrown.
 */
export interface Placement {
  result: DeductResult | { outcome: 'error'; error: Error };
  settings: ProductRunSettings;
}

/** Takes one order: finds the product's run, hands the deduction to the named strategy, records the order. */
@Injectable()
export class OrderPlacementService {
  constructor(
    @Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry,
    private readonly settingsStore: ProductSettingsStore,
    private readonly recorder: OrderRecorder,
    private readonly idempotencyKeys: IdempotencyKeys,
    @Optional() @Inject(FAULT_HOOKS) private readonly faultHooks: FaultHook[] = [],
  ) {}

  async place(request: CreateOrderRequest): Promise<Placement> {
    const strategy = this.registry.get(request.strategy);
    const key = request.idempotencyKey ?? null;
    // Issued together, so ioredis's auto-pipelining sends both in one round trip.
    const [settings, keyUsed] = await Promise.all([this.settingsStore.get(request.productId), key ? this.idempotencyKeys.used(key) : false]).catch((error) =>
      Promise.reject(asStoreError(error)),
    );
    if (settings.strategy !== strategy.name) throw new StrategyMismatchError(request.productId, settings.strategy, strategy.name);
    try {
      if (key && keyUsed) {
        const earlier = await this.recorder.findByIdempotencyKey(key);
        if (earlier) return { result: { outcome: 'sold', order: earlier }, settings };
      }
      try {
        const result = await strategy.deduct({
          requestId: randomUUID(),
          quantity: request.quantity,
          settings,
          faults: faultPointsFor(settings, this.faultHooks),
          record: (manager) =>
            this.recorder.record(
              { productId: request.productId, quantity: request.quantity, strategy: strategy.name, runId: settings.runId, idempotencyKey: key },
              manager,
            ),
        });
        return { result, settings };
      } catch (error) {
        // Two requests with one key raced past the lookup; the loser gave its units back, the winner's order is the answer.
        if (error instanceof DuplicateIdempotencyKeyError) {
          const earlier = await this.recorder.findByIdempotencyKey(error.idempotencyKey);
          if (earlier) return { result: { outcome: 'sold', order: earlier }, settings };
        }
        throw error;
      }
    } catch (error) {
      return { result: { outcome: 'error', error: asStoreError(error) }, settings };
    }
  }
}
