/**
 * A point in a test where callers stop until the test opens it: pauses a holder inside its section, or
 * lines several waiters up at the same step, and says when they are all there (no sleeping for it).
 */
export class Gate {
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  private waiting = 0;
  private readonly watchers: { count: number; resolve: () => void }[] = [];

  /** Stops the caller here until the gate opens (at once once it is open). */
  pass(): Promise<void> {
    this.waiting++;
    for (const watcher of this.watchers.filter((w) => w.count <= this.waiting)) watcher.resolve();
    return this.opened;
  }

  /** Resolves once `count` callers have reached the gate. */
  arrived(count = 1): Promise<void> {
    if (this.waiting >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  /** Lets every caller through, those waiting and those to come. */
  release(): void {
    this.open();
  }
}
