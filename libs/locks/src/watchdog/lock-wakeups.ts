import type Redis from 'ioredis';

interface ChannelWaiters {
  subscribers: number;
  /** Every joiner waits for it: a release published before SUBSCRIBE lands would be lost. */
  subscribed: Promise<unknown>;
  queue: (() => void)[];
  /** Release messages heard since the subscription: a waiter compares it with what it saw before its attempt. */
  heard: number;
}

/** The message of a release with no process in line: every process's head may try. */
const ANYONE = 'released';

/**
 * Wakes waiters of a lock when its holder announces the release (Redisson's LockPubSub): one
 * subscription per channel per process, and one waiter woken per message, so a release does not
 * stampede every waiter of the process at the lock; a message that names another process wakes no
 * one here. A waiter also gives up waiting after a bounded time, so a lost message (pub/sub is
 * at-most-once) strands no one.
 */
export class LockWakeups {
  private readonly channels = new Map<string, ChannelWaiters>();
  private listening = false;

  /** `process`: this process's name in the lock's queue; a release message naming another process is not for it. */
  constructor(
    private readonly subscriber: Redis,
    private readonly process: string,
  ) {}

  /** Subscribe before the first acquisition attempt, so a release between attempt and wait is not missed. */
  async join(channel: string): Promise<void> {
    this.listen();
    let entry = this.channels.get(channel);
    if (entry) {
      entry.subscribers++;
    } else {
      entry = { subscribers: 1, subscribed: this.subscriber.subscribe(channel), queue: [], heard: 0 };
      this.channels.set(channel, entry);
    }
    try {
      await entry.subscribed;
    } catch (error) {
      // Forget the failed subscription, so the next joiner subscribes again.
      entry.subscribers--;
      if (this.channels.get(channel) === entry) this.channels.delete(channel);
      throw error;
    }
  }

  async leave(channel: string): Promise<void> {
    const entry = this.channels.get(channel);
    if (!entry || --entry.subscribers > 0) return;
    this.channels.delete(channel);
    await this.subscriber.unsubscribe(channel);
  }

  /** Release messages heard on the channel so far; read it before an attempt, pass it to wait() after. */
  heard(channel: string): number {
    return this.entry(channel).heard;
  }

  /**
   * Resolves at once if a release was heard since `heardBefore` (it may have come after the attempt that
   * failed, so the lock may be free now), else on the next release message or after timeoutMs.
   */
  wait(channel: string, heardBefore: number, timeoutMs: number): Promise<void> {
    const entry = this.entry(channel);
    if (entry.heard !== heardBefore) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = entry.queue.indexOf(wake);
        if (at >= 0) entry.queue.splice(at, 1);
        resolve();
      }, Math.max(1, timeoutMs));
      entry.queue.push(wake);
    });
  }

  private entry(channel: string): ChannelWaiters {
    const entry = this.channels.get(channel);
    if (!entry) throw new Error(`${channel}: wait for releases after join()`);
    return entry;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.subscriber.on('message', (channel: string, message: string) => {
      const entry = this.channels.get(channel);
      // A free lock announced to the process first in line (watchdog-release-4.lua): the others sleep on.
      if (!entry || (message !== ANYONE && message !== this.process)) return;
      entry.heard++;
      entry.queue.shift()?.();
    });
    // Connected again (ioredis resubscribes): a release published while the connection was down went
    // unheard, so every waiter tries again now. After a failover, the lock a waiter slept on may be gone
    // with the old master; without this it would sleep out the holder's whole lease.
    this.subscriber.on('ready', () => {
      for (const entry of this.channels.values()) {
        entry.heard++;
        entry.queue.splice(0).forEach((wake) => wake());
      }
    });
  }
}
