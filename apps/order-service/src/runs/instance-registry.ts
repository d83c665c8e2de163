import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { InstanceFigures } from '@oversell/contracts';
import { RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import { appConfig, type AppConfig } from '../config/configuration';

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
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  private get key(): string {
    return `${this.options.keyPrefix}:instances`;
  }

  onModuleInit(): void {
    void this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.connections.commands.hdel(this.key, this.options.instanceId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const beat: InstanceBeat = {
      instance: this.options.instanceId,
      url: this.app.instanceUrl,
      port: this.app.port,
      pid: process.pid,
      rssBytes: process.memoryUsage.rss(),
      at: Date.now(),
    };
    await this.connections.commands.hset(this.key, this.options.instanceId, JSON.stringify(beat)).catch(() => undefined);
  }

  /** Instances heard from recently, sorted by port. */
  async live(): Promise<InstanceBeat[]> {
    const all = await this.connections.commands.hgetall(this.key);
    const now = Date.now();
    return Object.values(all)
      .map((json) => JSON.parse(json) as InstanceBeat)
      .filter((beat) => now - beat.at < INSTANCE_SILENT_AFTER_MS)
      .sort((a, b) => a.port - b.port);
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
