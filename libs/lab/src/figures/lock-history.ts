import type { LockEvent } from '@oversell/contracts';

/** Of a holding, what the overlap check and the timeline's holder count read. */
export type Holding = Pick<LockEvent, 'lockKey' | 'requestId' | 'acquiredAt' | 'releasedAt'>;

/**
 * A run's lock events as read page by page after the drain: the first `keepInFull` as they are (the
 * stored result shows them), and of every one only the holding. A long run keeps up to 100k events per
 * instance; parsed whole at once, with their JSON still alive, they took more than the run worker's heap
 * (a 600 s watchdog run on 3 instances died of it in its reconciliation).
 */
export class LockHistory {
  readonly kept: LockEvent[] = [];
  readonly holdings: Holding[] = [];
  /** Most runs hold one key or a few: one string each, not one per event. */
  private readonly keys = new Map<string, string>();

  constructor(private readonly keepInFull: number) {}

  add(events: readonly LockEvent[]): void {
    for (const event of events) {
      if (this.kept.length < this.keepInFull) this.kept.push(event);
      let lockKey = this.keys.get(event.lockKey);
      if (lockKey === undefined) this.keys.set(event.lockKey, (lockKey = event.lockKey));
      this.holdings.push({ lockKey, requestId: event.requestId, acquiredAt: event.acquiredAt, releasedAt: event.releasedAt });
    }
  }
}
