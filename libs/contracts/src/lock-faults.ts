import type { FaultKind } from './faults';
import type { Locale } from './locale';

/** The faults "Choosing a lock" compares the strategies under, in its column order. */
export const LOCK_FAULTS = ['crash', 'pause', 'store-cut', 'failover'] as const;
export type LockFault = (typeof LOCK_FAULTS)[number];

/** Each fault's name in a column heading, in every language. */
export const LOCK_FAULT_NAMES: Record<Locale, Record<LockFault, string>> = {
  en: {
    crash: 'holder crashes',
    pause: 'holder paused past the lease',
    'store-cut': 'store out of reach',
    failover: 'Redis master fails over',
  },
  'zh-CN': {
    crash: '持有者崩溃',
    pause: '持有者暂停超过租约',
    'store-cut': '存储不可达',
    failover: 'Redis 主从切换',
  },
};

/** The English names, for the tables not yet in both languages (docs/choosing-a-lock.md, the Explain view). */
export const LOCK_FAULT_TITLES = LOCK_FAULT_NAMES.en;

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
