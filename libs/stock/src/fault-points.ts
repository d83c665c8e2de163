import type { ProductRunSettings } from '@oversell/contracts';
import { LOCK_POINTS } from '@oversell/locks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The moments of a critical section, in order; the moment a counter has been overdrawn and is not yet
 * put back (decr-check); and the moments inside the locks' own steps. Strategies pass through the same
 * named points, so a delay, a pause or a crash can be put at any of them without editing a strategy.
 */
export const FAULT_POINTS = ['lock-acquired', 'stock-read', 'stock-written', 'order-recorded', 'stock-overdrawn', ...LOCK_POINTS] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

export interface FaultPoints {
  at(point: FaultPoint): Promise<void>;
}

export type FaultHook = (point: FaultPoint, settings: ProductRunSettings) => Promise<void> | void;

/**
 * The business delay is the time the application spends "doing business" between reading the stock
 * and writing it back: the window in which an expired lock lets a second holder read the same stock.
 * Extra hooks (pitfall demos, crash tests) run after it at every point.
 */
export function faultPointsFor(settings: ProductRunSettings, hooks: readonly FaultHook[] = []): FaultPoints {
  return {
    async at(point) {
      if (point === 'stock-read' && settings.businessDelayMs > 0) await sleep(settings.businessDelayMs);
      for (const hook of hooks) await hook(point, settings);
    },
  };
}

/** Optional provider of extra fault hooks (pitfall demos, crash tests); none by default. */
export const FAULT_HOOKS = Symbol('FAULT_HOOKS');
