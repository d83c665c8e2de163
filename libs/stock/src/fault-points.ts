import type { ProductRunSettings, SequenceStep } from '@oversell/contracts';
import { LOCK_POINTS, type LockHooks } from '@oversell/locks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The moments of a critical section, in order; the moment a counter has been overdrawn and is not yet
 * put back (decr-check); the moment a batch of queued orders is written but its jobs are not yet
 * completed (orderWrite 'queued', once per batch, with its first order's run); and the moments inside
 * the locks' own steps. Strategies pass through the same
 * named points, so a delay, a pause or a crash can be put at any of them without editing a strategy.
 */
export const FAULT_POINTS = ['lock-acquired', 'stock-read', 'stock-written', 'order-recorded', 'stock-overdrawn', 'order-batch-written', ...LOCK_POINTS] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

/** One order's fault points, and the clock its locks compare timestamps with. */
export interface FaultPoints extends LockHooks {
  /**
   * `value`: the stock read (stock-read) or written (stock-written), for the run's trace. Undefined when
   * nothing is armed at the point (no business delay, hook or fault): the hot path then goes on in the
   * same step (`const pass = faults.at(...); if (pass) await pass;`) instead of awaiting a resolved promise.
   */
  at(point: FaultPoint, value?: number): Promise<void> | undefined;
  now(): number;
  /** Notes a step of the critical section that is no fault point (a grant, a release) in the run's trace. */
  note: TraceStep;
}

/** A step of one order as the library sees it; the host adds the order, the instance and, unless given, the time. */
export type TraceNote = Pick<SequenceStep, 'target' | 'action' | 'value' | 'note' | 'at'>;

/** Keeps one step of one order: called in the hot path, so it only keeps the step. */
export type TraceStep = (step: TraceNote) => void;

/**
 * The host's recorder of the run's trace (the service provides one, bounded), asked once per order:
 * the order's recorder, or null when the order is outside the window: its steps then go to a no-op,
 * with no look-up of the order per step.
 */
export type TraceHook = (settings: ProductRunSettings, requestId: string) => TraceStep | null;

/** The fault points that are steps of the trace: the section's reads and writes of the stock and the order. */
const TRACED_POINTS: Partial<Record<FaultPoint, TraceNote>> = {
  'stock-read': { target: 'stock', action: 'GET' },
  'stock-written': { target: 'stock', action: 'SET' },
  'order-recorded': { target: 'orders', action: 'INSERT' },
};

export type FaultHook = (point: FaultPoint, settings: ProductRunSettings, requestId: string) => Promise<void> | void;

/**
 * The host's injector of a run's faults (the service provides one): it fires them at the fault points
 * and says how far the run shifts this instance's clock. The stock library knows no fault kind.
 */
export interface FaultInjector {
  /** Undefined when no fault of the run is armed at the point for this instance: nothing to wait for. */
  at(point: FaultPoint, settings: ProductRunSettings, requestId: string): Promise<void> | undefined;
  clockOffsetMs(settings: ProductRunSettings): number;
  /** Sets up, at the product's reset and before any order of the run, what a fault needs in place ahead of its point. */
  prepare?(settings: ProductRunSettings): Promise<void>;
}

export interface OrderFaults {
  requestId?: string;
  /** This process's clock offset (CLOCK_OFFSET_MS), before any the run adds. */
  clockOffsetMs?: number;
  injector?: FaultInjector | null;
  trace?: TraceHook | null;
}

/**
 * The business delay is the time the application spends "doing business" between reading the stock
 * and writing it back: the window in which an expired lock lets a second holder read the same stock.
 * Extra hooks (crash tests) and the run's fault injector run after it at every point.
 */
export function faultPointsFor(settings: ProductRunSettings, hooks: readonly FaultHook[] = [], { requestId = '', clockOffsetMs = 0, injector = null, trace = null }: OrderFaults = {}): FaultPoints {
  const offsetMs = clockOffsetMs + (injector?.clockOffsetMs(settings) ?? 0);
  const traced = trace?.(settings, requestId) ?? null;
  const note = traced ?? ignore;
  const pass = async (point: FaultPoint, delayMs: number) => {
    if (delayMs > 0) await sleep(delayMs);
    for (const hook of hooks) await hook(point, settings, requestId);
    await injector?.at(point, settings, requestId);
  };
  return {
    at(point, value) {
      const step = traced && TRACED_POINTS[point];
      // Noted before the point's delay and faults: the GET or SET happened now; a fault is the run's own event.
      if (step) traced(value === undefined ? step : { target: step.target, action: step.action, value });
      const delayMs = point === 'stock-read' ? settings.businessDelayMs : 0;
      if (delayMs > 0 || hooks.length > 0) return pass(point, delayMs);
      return injector?.at(point, settings, requestId);
    },
    now: () => Date.now() + offsetMs,
    note,
  };
}

const ignore: TraceStep = () => undefined;

/** Optional provider of extra fault hooks (crash tests); none by default. */
export const FAULT_HOOKS = Symbol('FAULT_HOOKS');
/** Optional provider of the run's fault injector (a FaultInjector); the service provides it. */
export const FAULT_INJECTOR = Symbol('FAULT_INJECTOR');


/** Cuts this instance off its store for a while, for the store-cut fault (an in-process TCP proxy in front of Redis). */
export interface StoreCut {
  cut(durationMs: number): Promise<void>;
}
/** Optional provider of the StoreCut; instances started without the store proxy have none. */
export const STORE_CUT = Symbol('STORE_CUT');
/**
 * Optional provider of the StoreCut in front of MySQL, for a store-cut with store 'mysql': the host
 * connects the stock's DataSource through it (its route) and keeps its own bookkeeping off it.
 */
export const MYSQL_STORE_CUT = Symbol('MYSQL_STORE_CUT');
