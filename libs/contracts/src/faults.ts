/**
 * Faults a run can carry: each one is injected for real, at a named fault point that the strategies and
 * locks already pass through (or, for double-click, by the load tool), in every instance the fault
 * names, never by editing a strategy. A run's faults travel with the product's run settings, so every
 * instance reads the same ones.
 */
export const FAULT_KINDS = ['crash', 'pause', 'stop-the-world', 'clock-offset', 'store-cut', 'double-click'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * The named moments of an order where an instance-side fault can fire: the critical section's own
 * (lock-acquired, stock-read, stock-written, order-recorded), a counter overdrawn and not yet put back
 * (stock-overdrawn), and the gaps inside the hand-made locks' two-command steps. The stock library's
 * FAULT_POINTS are the same list (its test says so).
 */
export const FAULT_POINT_NAMES = [
  'lock-acquired',
  'stock-read',
  'stock-written',
  'order-recorded',
  'stock-overdrawn',
  'lock-set-before-expire',
  'release-checked-before-del',
  'stamp-read-before-getset',
] as const;
export type FaultPointName = (typeof FAULT_POINT_NAMES)[number];

/** The faults that fire at a fault point (clock-offset holds for the whole run; double-click is the load tool's). */
export const FAULTS_AT_A_POINT: readonly FaultKind[] = ['crash', 'pause', 'stop-the-world', 'store-cut'];
/** The faults that last a while and say how long. */
export const FAULTS_WITH_DURATION: readonly FaultKind[] = ['pause', 'stop-the-world', 'store-cut'];

export const FAULT_LIMITS = {
  maxFaultsPerRun: 8,
  maxDurationMs: 30_000,
  maxClockOffsetMs: 600_000,
  maxCopies: 10,
  maxEvery: 1_000_000,
} as const;

/**
 * One fault of a run. How often it fires at its point, counted over all the run's instances together:
 * `once` (the default when neither `every` nor `probability` is given), every `every`-th passage, or
 * each passage with `probability` (0 < p ≤ 1). At most one of the three.
 */
export interface FaultSettings {
  kind: FaultKind;
  /** Where it fires: required for crash, pause, stop-the-world and store-cut; not allowed for the others. */
  at?: FaultPointName;
  once?: boolean;
  every?: number;
  probability?: number;
  /** pause, stop-the-world, store-cut: how long, in ms (1 … FAULT_LIMITS.maxDurationMs). */
  durationMs?: number;
  /** clock-offset: how far this instance's "now" is shifted, ± ms (non-zero). */
  offsetMs?: number;
  /**
   * Which instance it applies to: its index among the run's live instances in port order (0 = the
   * lowest port). Omitted: every instance. clock-offset on every instance shifts them all alike, which
   * shows nothing: give it one instance.
   */
  instance?: number;
  /** double-click: how many copies of each order the load tool sends at once, with the same idempotency key (2 … maxCopies). */
  copies?: number;
  /** double-click: whether the copies carry an idempotency key (default true); without one, each copy is its own order. */
  idempotencyKey?: boolean;
}

/** One injected fault, as it happened: the lock timeline marks it at its moment, on its instance. */
export interface FaultEvent {
  kind: FaultKind;
  /** The fault point it fired at; null for clock-offset (from the run's start) and double-click. */
  at: FaultPointName | null;
  instance: string;
  /** The order it fired in (the request id the lock events carry), when it fired inside one. */
  requestId: string | null;
  /** Epoch ms with fractions. */
  startedAt: number;
  /** When it ended (pause, stop-the-world, store-cut); null for a crash (the process is gone) and for faults without a duration. */
  endedAt: number | null;
}
