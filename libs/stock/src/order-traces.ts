import { Injectable } from '@nestjs/common';
import type { TraceHook } from './fault-points';

/**
 * Where the steps of every order's critical section go, for the run's trace. The library only notes them;
 * the host decides whether to keep them (the run recorder does, a bounded number per run) by listening.
 */
@Injectable()
export class OrderTraces {
  private listener: TraceHook | null = null;

  /** One listener at a time; returns the function that stops it. */
  listen(listener: TraceHook): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = null;
    };
  }

  /** What an order's fault points ask whether it is traced: null while nobody listens, so a step costs one check. */
  get hook(): TraceHook | null {
    return this.listener;
  }
}
