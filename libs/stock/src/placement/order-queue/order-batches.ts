import { Inject, Injectable, Optional } from '@nestjs/common';
import { FAULT_HOOKS, FAULT_INJECTOR, faultPointsFor, type FaultHook, type FaultInjector } from '../../fault-points';
import { OrderRecorder, type QueuedOrder } from '../order-recorder';
import { ProductSettingsStore } from '../product-settings.store';

/**
 * Most orders in one INSERT; also how many jobs one instance's order writer holds at once. Kept small
 * because BullMQ renews the lock only of a job that has a slot: one it fetched ahead waits for a slot
 * unrenewed, about one Redis round trip per job ahead of it, and its first renewal comes up to 1.25 s
 * after that. So the wait must stay under about 3.7 s of the 5 s lock: 50 slots allow 75 ms a round
 * trip. With 200, a loaded instance's jobs waited 2–6.5 s and were written twice
 * (late-redis-replies.int-spec.ts).
 */
export const ORDER_BATCH_MAX = 50;
/** How long the first order of a batch waits for more: the worker fetches its jobs one by one. */
const ORDER_BATCH_LINGER_MS = 5;

interface Waiting {
  order: QueuedOrder;
  written(): void;
  failed(error: unknown): void;
}

/**
 * Gathers the orders of the jobs the order writer holds at once into one multi-row INSERT. Each job's
 * promise settles with its batch: a failed INSERT fails every job of it, and BullMQ retries them.
 */
@Injectable()
export class OrderBatches {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly recorder: OrderRecorder,
    private readonly settingsStore: ProductSettingsStore,
    @Optional() @Inject(FAULT_HOOKS) private readonly faultHooks: FaultHook[] = [],
    @Optional() @Inject(FAULT_INJECTOR) private readonly faultInjector: FaultInjector | null = null,
  ) {}

  write(order: QueuedOrder): Promise<void> {
    return new Promise((written, failed) => {
      this.waiting.push({ order, written, failed });
      if (this.waiting.length >= ORDER_BATCH_MAX) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), ORDER_BATCH_LINGER_MS);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting.splice(0);
    if (!batch.length) return;
    this.writeBatch(batch.map((w) => w.order)).then(
      () => batch.forEach((w) => w.written()),
      (error: unknown) => batch.forEach((w) => w.failed(error)),
    );
  }

  /** One multi-row INSERT of orders sold earlier (the queue's jobs, or a stream's entries), then the batch's fault point. */
  async writeBatch(orders: QueuedOrder[]): Promise<void> {
    await this.recorder.recordQueued(orders);
    // Written, jobs (or stream entries) not yet acknowledged: a crash here is what the retry without duplicates is for.
    const [first] = orders;
    const settings = await this.settingsStore.cached(first.productId);
    const pass = faultPointsFor(settings, this.faultHooks, { requestId: first.requestId, injector: this.faultInjector }).at('order-batch-written');
    if (pass) await pass;
  }
}
