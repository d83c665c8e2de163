import type { LockHolding, ReleaseResult } from './distributed-lock';
import { AlreadyReleasedError } from './errors';

/** What a lock says about one grant; the holding adds the once-only release around it. */
export interface Grant {
  key: string;
  token: string;
  acquiredAt: number;
  leaseMs: number;
  /** Defaults to a signal that never fires: the lock cannot learn that it was lost. */
  signal?: AbortSignal;
  validUntil?: number;
  fencingToken?: number;
  renewals?: EventTarget;
  release(): Promise<ReleaseResult>;
}

const NEVER = new AbortController().signal;

/** A holding whose release runs once; a second call is the caller's bug and throws. */
export function holdingOf(grant: Grant): LockHolding {
  let released = false;
  return {
    key: grant.key,
    token: grant.token,
    acquiredAt: grant.acquiredAt,
    leaseMs: grant.leaseMs,
    signal: grant.signal ?? NEVER,
    validUntil: grant.validUntil,
    fencingToken: grant.fencingToken,
    renewals: grant.renewals,
    release: () => {
      if (released) return Promise.reject(new AlreadyReleasedError(grant.key));
      released = true;
      return grant.release();
    },
  };
}
