/** Base of the errors a lock throws; a lock that is merely busy returns null instead. */
export class LockError extends Error {}

/** release() called a second time on one holding: a bug in the caller, never retried. */
export class AlreadyReleasedError extends LockError {
  constructor(readonly key: string) {
    super(`lock ${key} was already released by this holding`);
  }
}
