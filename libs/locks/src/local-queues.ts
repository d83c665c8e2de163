interface Queue {
  tail: Promise<void>;
  length: number;
}

/**
 * First-come-first-served turns per key inside one process. Callers of one key run one at a time,
 * in arrival order, and a caller that waited too long leaves the line without holding it up. In front
 * of a distributed lock it keeps a process's own orders from spinning against each other on Redis:
 * only the head of each process's line competes for the Redis lock.
 */
export class LocalQueues {
  private readonly queues = new Map<string, Queue>();

  /** Callers waiting or running for `key` in this process. */
  length(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Runs `turn` when every earlier caller of `key` is done; null if that did not happen within waitMs. */
  async run<T>(key: string, waitMs: number, turn: () => Promise<T>): Promise<T | null> {
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = { tail: Promise.resolve(), length: 0 }));
    queue.length++;
    const previous = queue.tail;
    let done!: () => void;
    queue.tail = new Promise<void>((resolve) => (done = resolve));
    const finish = () => {
      done();
      if (--queue.length === 0 && this.queues.get(key) === queue) this.queues.delete(key);
    };

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), waitMs)));
    const reached = await Promise.race([previous.then(() => 'turn' as const), timedOut]);
    clearTimeout(timer);
    if (reached === 'timeout') {
      // Leave the line: the ones behind move up as soon as the one ahead is done.
      void previous.then(finish);
      return null;
    }
    try {
      return await turn();
    } finally {
      finish();
    }
  }
}
