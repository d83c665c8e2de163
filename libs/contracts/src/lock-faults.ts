import type { FaultKind } from './faults';
import type { Localized } from './locale';

/** The faults "Choosing a lock" compares the strategies under, in its column order. */
export const LOCK_FAULTS = ['crash', 'pause', 'store-cut', 'failover'] as const;
export type LockFault = (typeof LOCK_FAULTS)[number];

/** Each fault's name in a column heading, in every language. */
export const LOCK_FAULT_TITLES: Record<LockFault, Localized> = {
  crash: { en: 'holder crashes', 'zh-CN': '持有者崩溃' },
  pause: { en: 'holder paused past the lease', 'zh-CN': '持有者暂停超过租约' },
  'store-cut': { en: 'store out of reach', 'zh-CN': '存储不可达' },
  failover: { en: 'Redis master fails over', 'zh-CN': 'Redis 主从切换' },
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
