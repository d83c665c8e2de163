import { Injectable } from '@nestjs/common';
import type { LockEvent, StrategyName } from '@oversell/contracts';
import { EventEmitter } from 'node:events';

export type LockEventListener = (runId: string, strategy: StrategyName, event: LockEvent) => void;

/**
 * Every lock holding, reported when it ends. The library only announces them; the host decides
 * whether to collect them (the run recorder does, to draw who held the lock when and to count
 * overlapping holders).
 */
@Injectable()
export class LockEvents {
  private readonly emitter = new EventEmitter();

  emit(runId: string, strategy: StrategyName, event: LockEvent): void {
    this.emitter.emit('holding', runId, strategy, event);
  }

  subscribe(listener: LockEventListener): () => void {
    this.emitter.on('holding', listener);
    return () => this.emitter.off('holding', listener);
  }
}
