import type { RedisOptions } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoreCut } from '../fault-points';
import { CuttableProxy } from '@oversell/locks';

/**
 * The store-cut fault for real: this process's Redis connections go through an in-process TCP proxy
 * (STORE_PROXY), and a cut resets every connection and refuses new ones for its duration, so commands
 * fail, a watchdog's renewals fail and its holder's lock-lost signal fires, while Redis itself stays
 * up for every other instance. The service puts a second one in front of MySQL for the stock's
 * DataSource (a store-cut with store 'mysql'): a transaction it cuts is rolled back by MySQL, and the
 * mysql2 pool drops the dead connections and opens new ones once the port accepts again. Every byte
 * then crosses one more socket pair, which costs throughput: the bench runs without it.
 */
export class StoreCutProxy implements StoreCut {
  /** Cuts and heals in the order they were asked for, so a heal never races a cut that began after it. */
  private transitions: Promise<void> = Promise.resolve();
  private activeCuts = 0;
  private closed = false;

  private constructor(private readonly proxy: CuttableProxy) {}

  static async open(store: Pick<RedisOptions, 'host' | 'port'>): Promise<StoreCutProxy> {
    const proxy = new CuttableProxy(store.host ?? '127.0.0.1', store.port ?? 6379);
    await proxy.start();
    return new StoreCutProxy(proxy);
  }

  /** Where this process's connections to the store connect instead of the store itself. */
  get route(): { host: string; port: number } {
    return { host: '127.0.0.1', port: this.proxy.port };
  }

  /**
   * Cuts the store off for durationMs and resolves once it is reachable again. Overlapping cuts keep it
   * cut until the last one ends.
   */
  async cut(durationMs: number): Promise<void> {
    if (this.activeCuts++ === 0) await this.transition(() => this.proxy.cut());
    try {
      await sleep(durationMs);
    } finally {
      if (--this.activeCuts === 0) await this.transition(() => (this.closed ? Promise.resolve() : this.proxy.restore()));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.transition(() => this.proxy.stop());
  }

  private transition(step: () => Promise<void>): Promise<void> {
    // A failed step (the port taken while it was cut) must not wedge every later one.
    this.transitions = this.transitions.catch(() => undefined).then(step);
    return this.transitions;
  }
}
