/** What the one ahead hands a waiter: the turn (try for the lock yourself) or the lock itself. */
export type Handed<T> = 'turn' | T;

interface Waiting<W, T> {
  waiter: W;
  timer: NodeJS.Timeout;
  hand(handed: Handed<T>): void;
}

/**
 * One key's line inside one process (Redisson's RedissonLockEntry, in order): one caller has the turn,
 * trying for the lock or holding it, and the others wait behind it, first come first served, each for
 * at most its own wait. Whoever has the turn hands it, or the lock itself, to the next waiter, so the
 * callers of one process never race one another for the lock.
 */
export class LockLine<W, T> {
  private taken = false;
  private readonly waiting: Waiting<W, T>[] = [];

  /** Nobody has the turn and nobody waits: the line can be forgotten. */
  get idle(): boolean {
    return !this.taken && this.waiting.length === 0;
  }

  /** The turn at once if nobody has it, else what the one ahead hands over; null if waitMs runs out first. */
  enter(waiter: W, waitMs: number): Promise<Handed<T> | null> {
    if (!this.taken) {
      this.taken = true;
      return Promise.resolve('turn');
    }
    return new Promise((resolve) => {
      const waiting: Waiting<W, T> = {
        waiter,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiting), 1);
          resolve(null);
        }, waitMs),
        hand: resolve,
      };
      this.waiting.push(waiting);
    });
  }

  /**
   * The first waiter, out of the line, to be handed the turn or the lock; none: the turn is given up.
   * Its wait stops counting here: it is promised what comes next even if handing it over takes a round
   * trip (a wait that ran out then would leave a lock passed to nobody, renewed for ever).
   */
  next(): Pick<Waiting<W, T>, 'waiter' | 'hand'> | undefined {
    const next = this.waiting.shift();
    if (!next) this.taken = false;
    else clearTimeout(next.timer);
    return next;
  }

  /** The turn ends with nothing else to hand: the next waiter tries for the lock itself. */
  handOn(): void {
    this.next()?.hand('turn');
  }
}
