/** Base of the errors a lock throws; a lock that is merely busy returns null instead. */
export class LockError extends Error {}

/** release() called a second time on one holding: a bug in the caller, never retried. */
export class AlreadyReleasedError extends LockError {
  constructor(readonly key: string) {
    super(`lock ${key} was already released by this holding`);
  }
}

/**
 * A lock spread over several stores (RedLock's masters) could not reach a majority of them: the lock
 * is not busy, it cannot be decided. Callers answer it as `lock_unavailable`, not as a timeout.
 */
export class LockUnavailableError extends LockError {
  readonly code = 'lock_unavailable';

  constructor(
    readonly key: string,
    readonly reachable: number,
    readonly needed: number,
    cause?: unknown,
  ) {
    super(`lock ${key} unavailable: ${reachable} of its nodes answered, a majority of ${needed} is needed`, { cause });
  }
}
