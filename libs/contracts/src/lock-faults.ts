import type { FaultKind } from './faults';

/** The faults "Choosing a lock" compares the strategies under, in its column order. */
export const LOCK_FAULTS = ['crash', 'pause', 'store-cut', 'failover'] as const;
export type LockFault = (typeof LOCK_FAULTS)[number];

export const LOCK_FAULT_TITLES: Record<LockFault, string> = {
  crash: 'holder crashes',
  pause: 'holder paused past the lease',
  'store-cut': 'store out of reach',
  failover: 'Redis master fails over',
};

/**
 * Which comparison fault a run's fault is: a pause at a fault point and a stop-the-world pause are both
 * a holder that stops while the world goes on. Clock skew and the double click are no lock's fault here.
 */
export const LOCK_FAULT_OF: Partial<Record<FaultKind, LockFault>> = {
  crash: 'crash',
  pause: 'pause',
  'stop-the-world': 'pause',
  'store-cut': 'store-cut',
  failover: 'failover',
};
