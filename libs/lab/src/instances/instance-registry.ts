import { Inject, Injectable, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { InstanceFigures } from '@oversell/contracts';
import { RedisConnections, STOCK_OPTIONS, STORE_CUT, type StockOptions, type StoreCut } from '@oversell/stock';
import { LAB_OPTIONS, type LabOptions } from '../lab.options';
import { instancesKey } from '../redis-keys';

const HEARTBEAT_EVERY_MS = 1000;
/** An instance silent for this long is taken for dead. */
export const INSTANCE_SILENT_AFTER_MS = 3000;

export interface InstanceBeat {
  instance: string;
  url: string;
  port: number;
  pid: number;
  rssBytes: number;
  at: number;
  /** Started with the store proxy (a StoreCut), so a store-cut fault can cut it off its Redis. */
  storeProxy?: boolean;
  /** Its locks are on a Sentinel group (REDIS_SENTINELS), so a failover fault can fail it over. */
  lockSentinels?: boolean;
  /** It has RedLock nodes (REDLOCK_NODES), so a node-restart fault can restart one. */
  redlockNodes?: boolean;
}

/**
 * Every instance announces itself in Redis once a second with its URL and memory, so the run worker
 * knows which instances to load, notices one that dies mid-run, and reports peak RSS per instance.
 */
@Injectable()
export class InstanceRegistry implements OnModuleInit, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
    @Inject(LAB_OPTIONS) private readonly app: LabOptions,
    @Optional() @Inject(STORE_CUT) private readonly storeCut: StoreCut | null = null,
  ) {}

  private get key(): string {
    return instancesKey(this.options.keyPrefix);
  }

  onModuleInit(): void {
    void this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.connections.control.hdel(this.key, this.options.instanceId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const beat: InstanceBeat = {
      instance: this.options.instanceId,
      url: this.app.instanceUrl,
      port: this.app.port,
      pid: process.pid,
      rssBytes: process.memoryUsage.rss(),
      at: Date.now(),
      storeProxy: this.storeCut !== null,
      lockSentinels: this.connections.sentinels !== null,
      redlockNodes: this.options.lockServices?.['redis-nodes'] !== undefined,
    };
    await this.connections.control.hset(this.key, this.options.instanceId, JSON.stringify(beat)).catch(() => undefined);
  }

  /** Instances heard from recently, sorted by port. */
  async live(): Promise<InstanceBeat[]> {
    const now = Date.now();
    return (await this.lastBeats()).filter((beat) => now - beat.at < INSTANCE_SILENT_AFTER_MS).sort((a, b) => a.port - b.port);
  }

  /** The last beat of every instance that has not shut down, however old. */
  async lastBeats(): Promise<InstanceBeat[]> {
    return Object.values(await this.connections.control.hgetall(this.key)).map((json) => JSON.parse(json) as InstanceBeat);
  }
}

/**
 * Which of a run's instances have stopped. A heartbeat can be late from a live instance that the run
 * itself keeps busy, so a late beat alone does not fail the run: the grace is measured against the
 * instance's own progress too (its figure batches reaching Redis). An instance is gone when it shut
 * down (its beat removed), came back as another process, or neither beat nor moved its figures for
 * INSTANCE_SILENT_AFTER_MS.
 */
export class RunInstancesWatch {
  /** Per instance: its batch count when last seen, and when (this process's clock) it last changed. */
  private readonly progress = new Map<string, { batches: number; at: number }>();

  constructor(
    private readonly registry: Pick<InstanceRegistry, 'lastBeats'>,
    private readonly batchesByInstance: () => Promise<ReadonlyMap<string, number>>,
    private readonly instances: readonly InstanceBeat[],
    startedAt = Date.now(),
    /** A run's stop-the-world fault freezes its instance, heartbeats included, for up to this long on top. */
    private readonly silentAfterMs = INSTANCE_SILENT_AFTER_MS,
  ) {
    for (const instance of instances) this.progress.set(instance.instance, { batches: 0, at: startedAt });
  }

  async gone(now = Date.now()): Promise<InstanceBeat[]> {
    const [beats, batches] = await Promise.all([this.registry.lastBeats(), this.batchesByInstance()]);
    return this.instances.filter((instance) => {
      const beat = beats.find((b) => b.instance === instance.instance);
      if (!beat || beat.pid !== instance.pid) return true;
      const seen = this.progress.get(instance.instance)!;
      const count = batches.get(instance.instance) ?? 0;
      if (count !== seen.batches) this.progress.set(instance.instance, { batches: count, at: now });
      return now - Math.max(beat.at, this.progress.get(instance.instance)!.at) >= this.silentAfterMs;
    });
  }
}

/** Peak memory per instance over a run, from the heartbeats seen while it ran. */
export class PeakMemory {
  private readonly peaks = new Map<string, InstanceFigures>();

  observe(beats: readonly InstanceBeat[]): void {
    for (const beat of beats) {
      const seen = this.peaks.get(beat.instance);
      if (!seen || beat.rssBytes > seen.peakRssBytes) {
        this.peaks.set(beat.instance, { instance: beat.instance, port: beat.port, attempts: 0, peakRssBytes: beat.rssBytes });
      }
    }
  }

  figures(): InstanceFigures[] {
    return [...this.peaks.values()];
  }
}
