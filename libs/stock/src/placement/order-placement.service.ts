import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CreateOrderRequest, PlacedOrder, ProductRunSettings } from '@oversell/contracts';
import type { EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import type { DeductContext, DeductResult, StockStrategy } from '../stock-strategy';
import { STOCK_STRATEGIES, type StrategyRegistry } from '../strategy-registry';
import { DuplicateIdempotencyKeyError, IdempotencyKeyReusedError, StockNotSeededError, StockStoreLostError, StrategyMismatchError } from '../errors';
import { LateSettlements } from './late-settlements';
import { IdempotencyKeys } from './idempotency-keys';
import { FAULT_HOOKS, FAULT_INJECTOR, faultPointsFor, type FaultHook, type FaultInjector } from '../fault-points';
import { OrderTraces } from '../order-traces';
import { STOCK_OPTIONS, type StockOptions } from '../stock.options';
import { OrderRecorder, type NewOrder } from './order-recorder';
import { OrderWriteQueue } from './order-queue/order-write-queue';
import { encodeOrder, OrderStreams } from './order-stream/order-streams';
import { ProductSettingsStore } from './product-settings.store';
import { asStoreError } from '../store-errors';

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
    private readonly orderQueue: OrderWriteQueue,
    private readonly orderStreams: OrderStreams,
    private readonly idempotencyKeys: IdempotencyKeys,
    private readonly settlements: LateSettlements,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
    private readonly traces: OrderTraces,
    @Optional() @Inject(FAULT_HOOKS) private readonly faultHooks: FaultHook[] = [],
    @Optional() @Inject(FAULT_INJECTOR) private readonly faultInjector: FaultInjector | null = null,
  ) {}

  async place(request: CreateOrderRequest): Promise<Placement> {
    const strategy = this.registry.get(request.strategy);
    const load = (read: (productId: number) => Promise<ProductRunSettings>) => read(request.productId).catch((error) => Promise.reject(asStoreError(error)));
    let settings = await load((id) => this.settingsStore.cached(id));
    // Reset for another strategy since this process last looked? Look again before refusing.
    if (settings.strategy !== strategy.name) settings = await load((id) => this.settingsStore.fresh(id));
    let placement = await this.attempt(strategy, request, settings);
    // Remembered settings of an earlier run find no stock (keys and row carry the run id): reload once.
    if (foundNoStock(placement)) {
      const fresh = await load((id) => this.settingsStore.fresh(id));
      if (fresh.runId !== settings.runId) placement = await this.attempt(strategy, request, fresh);
      if (foundNoStock(placement)) return this.whyNoStock(placement);
    }
    return placement;
  }

  /** The current run's store holds nothing: lost if MySQL records the run as seeded, never seeded otherwise. */
  private async whyNoStock(placement: Placement): Promise<Placement> {
    const { productId, runId } = placement.settings;
    try {
      if (!(await this.settingsStore.seeded(placement.settings))) return placement;
      return { ...placement, result: { outcome: 'error', error: new StockStoreLostError(productId, runId) } };
    } catch (error) {
      return { ...placement, result: { outcome: 'error', error: asStoreError(error) } };
    }
  }

  private async attempt(strategy: StockStrategy, request: CreateOrderRequest, settings: ProductRunSettings): Promise<Placement> {
    if (settings.strategy !== strategy.name) throw new StrategyMismatchError(request.productId, settings.strategy, strategy.name);
    const key = request.idempotencyKey ?? null;
    const streamed = settings.orderWrite === 'stream';
    // Asked in the same tick as the strategy's first command, so auto-pipelining sends both in one round
    // trip. A replay is told apart afterwards: if it sold again, the unique index refuses the second order
    // and the units go back; if it found no stock, the key's first order is the answer. Not asked where the
    // streamed take's script refuses a claimed key before it looks at the stock (a lock strategy's reads the stock first).
    const keyUsed = key && !(streamed && strategy.claimsKeyBeforeStock) ? this.idempotencyKeys.used(key).catch(() => false) : Promise.resolve(false);
    try {
      let result: DeductResult;
      const requestId = randomUUID();
      // A streamed order's row, and so the unique index, comes after the answer: its take script claims the
      // key with the order, unless its streams are on a host of their own (a Cluster's segments), whose
      // scripts cannot reach the lab's keys: the key is then claimed before the take, let go if nothing sold.
      const claimApart = streamed && key && strategy.orderStreams ? key : null;
      try {
        if (claimApart && !(await this.idempotencyKeys.claim(claimApart, requestId))) throw new DuplicateIdempotencyKeyError(claimApart);
        result = await strategy.deduct({
          requestId,
          quantity: request.quantity,
          settings,
          faults: faultPointsFor(settings, this.faultHooks, { requestId, clockOffsetMs: this.options.clockOffsetMs, injector: this.faultInjector, trace: this.traces.hook }),
          ...(streamed && key && !claimApart ? { orderClaim: this.idempotencyKeys.orderClaim(key) } : {}),
          ...this.orderWrites(
            { productId: request.productId, quantity: request.quantity, strategy: strategy.name, runId: settings.runId, idempotencyKey: key, requestId },
            settings,
          ),
        });
      } catch (error) {
        if (error instanceof DuplicateIdempotencyKeyError) return await this.replay(request, settings, error);
        if (claimApart) await this.idempotencyKeys.release(claimApart, requestId).catch(() => undefined);
        throw error;
      }
      if (claimApart && result.outcome !== 'sold') await this.idempotencyKeys.release(claimApart, requestId).catch(() => undefined);
      if (result.outcome !== 'sold' && key && (await keyUsed)) return await this.replay(request, settings, result);
      return { result, settings };
    } catch (error) {
      // The key's own refusals answer the client (409, 422); a store failing, here or in the replay's lookups, is an outcome.
      if (error instanceof DuplicateIdempotencyKeyError || error instanceof IdempotencyKeyReusedError) throw error;
      return { result: { outcome: 'error', error: asStoreError(error) }, settings };
    }
  }

  /**
   * How the strategy writes its order. Queued (orderWrite 'queued') only where the order is not part of
   * a transaction with the stock (a MySQL row strategy passes its manager and writes at once). A queued
   * order's idempotency key is claimed in Redis first, since its row (and the unique index) comes later:
   * a key another request holds is refused as the index would refuse it, and the units go back.
   */
  private orderWrites(order: NewOrder, settings: ProductRunSettings): Pick<DeductContext, 'record' | 'recorded' | 'abandoned' | 'settleLater' | 'orderIntent'> {
    if (settings.orderWrite === 'stream') {
      // The take script appended the order with the units (reset refuses 'stream' to any other strategy): nothing to write here.
      return { orderIntent: encodeOrder(order), record: async () => this.orderStreams.view(order), recorded: () => this.recorder.findByRequestId(order.requestId) };
    }
    const queued = settings.orderWrite === 'queued';
    const enqueue = async (): Promise<PlacedOrder> => {
      if (order.idempotencyKey && !(await this.idempotencyKeys.claim(order.idempotencyKey, order.requestId))) throw new DuplicateIdempotencyKeyError(order.idempotencyKey);
      return this.orderQueue.enqueue(order);
    };
    const key = order.idempotencyKey;
    const recorded = async () => (queued ? ((await this.orderQueue.queued(order.requestId)) ?? this.recorder.findByRequestId(order.requestId)) : this.recorder.findByRequestId(order.requestId));
    const abandoned = queued && key ? () => this.idempotencyKeys.release(key, order.requestId) : undefined;
    return {
      record: (manager?: EntityManager): Promise<PlacedOrder> => (queued && !manager ? enqueue() : this.recorder.record(order, manager)),
      // Queued: the job while it waits, the row once written (the written job is removed).
      recorded,
      // A claim left behind would refuse the client's retry with this key as "already used" for a day.
      ...(abandoned ? { abandoned } : {}),
      settleLater: (giveBack) =>
        this.settlements.add({
          settings,
          recorded,
          giveBack: async () => {
            await giveBack();
            await abandoned?.().catch(() => undefined);
          },
        }),
    };
  }

  /**
   * The first order placed with this request's idempotency key — or, if it cannot be found, what this
   * attempt came to. A key reused for a different order is refused: answering with the first order
   * would tell the client its new order succeeded.
   */
  private async replay(request: CreateOrderRequest, settings: ProductRunSettings, otherwise: DeductResult | Error): Promise<Placement> {
    // Written, or still queued under the request that claimed the key.
    const earlier =
      (await this.recorder.findByIdempotencyKey(request.idempotencyKey!)) ??
      (settings.orderWrite === 'queued' ? await this.orderQueue.queuedByKey(await this.idempotencyKeys.claimedBy(request.idempotencyKey!)) : null);
    if (earlier) {
      if (earlier.productId !== request.productId || earlier.quantity !== request.quantity || earlier.strategy !== request.strategy) {
        throw new IdempotencyKeyReusedError(request.idempotencyKey!, earlier.id ?? `queued ${earlier.requestId}`);
      }
      return { result: { outcome: 'sold', order: earlier }, settings };
    }
    if (otherwise instanceof Error) throw otherwise;
    return { result: otherwise, settings };
  }
}

function foundNoStock(placement: Placement): boolean {
  return placement.result.outcome === 'error' && placement.result.error instanceof StockNotSeededError;
}
