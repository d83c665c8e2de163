import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { FaultEvent, FaultPointName, FaultSettings, ProductRunSettings } from '@oversell/contracts';
import { preciseNow } from '@oversell/locks';
import { MYSQL_STORE_CUT, RedisConnections, RedlockNodeRestart, SentinelGroup, StockKeys, STOCK_OPTIONS, STORE_CUT, type FaultInjector, type FaultPoint, type StockOptions, type StoreCut } from '@oversell/stock';
import { setTimeout as sleep } from 'node:timers/promises';
import { announceCrash } from '../figures/flush-protocol';
import { RUN_FIGURES_TTL_SECONDS, RunFigureKeys } from '../redis-keys';

/**
 * How long a failover fault holds the locks' replica back from the run's reset, and a node-restart's
 * stranger holds its grants: past any run's way to its first holding. A run whose fault never fired
 * leaves them to run out (the next run's lock key is another), or the next reset lifts the hold.
 */
const HELD_FROM_RESET_MS = 60_000;

/**
 * Injects a run's faults (its product settings carry them) at the fault points the strategies and locks
 * pass, in this instance. How often a fault fires is counted over all the instances it targets, in
 * Redis: one INCR (every) or SET NX (once) per passage of a point a fault names; a run without faults
 * costs nothing. Each fault that fires is recorded as a FaultEvent in the run's list.
 */
@Injectable()
export class RunFaultInjector implements FaultInjector {
  private readonly logger = new Logger(RunFaultInjector.name);

  constructor(
    private readonly connections: RedisConnections,
    @Inject(STOCK_OPTIONS) private readonly options: StockOptions,
    @Optional() @Inject(STORE_CUT) private readonly redisCut: StoreCut | null = null,
    @Optional() @Inject(MYSQL_STORE_CUT) private readonly mysqlCut: StoreCut | null = null,
  ) {}

  /** Whether the fault applies to this instance: the one the run resolved, or every instance the run does not spare. */
  private targets(fault: FaultSettings): boolean {
    if (fault.instanceId !== undefined) return fault.instanceId === this.options.instanceId;
    return fault.sparedInstanceId !== this.options.instanceId;
  }

  /** The locks' Sentinel group, for the failover fault; null when this instance's locks are on no group. */
  private get sentinelGroup(): SentinelGroup | null {
    const sentinels = this.options.lockServices?.['redis-sentinel'];
    return sentinels ? new SentinelGroup(sentinels, this.options.sentinelMaster) : null;
  }

  /**
   * Set up from the reset on, before any order of the run can take a lock. A failover's replica is held
   * back: a lock key set during the run then reaches the master only, and the master fails at the
   * fault's point. A node restart's (or clock jump's) stranger takes two RedLock nodes: the first holder wins the other three.
   */
  async prepare(settings: ProductRunSettings): Promise<void> {
    const kinds = new Set(settings.faults?.map((fault) => fault.kind));
    if (kinds.has('failover')) await this.failoverGroup().holdReplica(HELD_FROM_RESET_MS);
    if (kinds.has('node-restart') || kinds.has('clock-jump')) await this.redlockNodes().prepare(this.lockKey(settings), settings.lockTtlMs, HELD_FROM_RESET_MS);
  }

  private redlockNodes(): RedlockNodeRestart {
    // Runs refuse a node restart when an instance has no RedLock nodes; a reset by hand may still name one.
    const nodes = this.options.lockServices?.['redis-nodes'];
    if (!nodes) throw new Error(`node-restart, clock-jump: instance ${this.options.instanceId} has no RedLock nodes (REDLOCK_NODES)`);
    return new RedlockNodeRestart(nodes);
  }

  /** The run's one lock key, the one every lock around the Redis stock takes. */
  private lockKey(settings: ProductRunSettings): string {
    return StockKeys.of(this.options.keyPrefix, settings).lock;
  }

  private failoverGroup(): SentinelGroup {
    // Runs refuse a failover when an instance's locks are on no Sentinel group; a reset by hand may still name one.
    const group = this.sentinelGroup;
    if (!group) throw new Error(`failover: instance ${this.options.instanceId} keeps its locks on no Sentinel group (REDIS_SENTINELS)`);
    return group;
  }

  clockOffsetMs(settings: ProductRunSettings): number {
    return (settings.faults ?? []).filter((f) => f.kind === 'clock-offset' && this.targets(f)).reduce((sum, f) => sum + (f.offsetMs ?? 0), 0);
  }

  /** Undefined (no async step in the order's path) when no fault of the run is armed at the point for this instance. */
  at(point: FaultPoint, settings: ProductRunSettings, requestId: string): Promise<void> | undefined {
    const faults = settings.faults;
    if (!faults?.some((fault) => fault.at === point && this.targets(fault))) return undefined;
    return this.fire(faults, point, settings, requestId);
  }

  private async fire(faults: readonly FaultSettings[], point: FaultPoint, settings: ProductRunSettings, requestId: string): Promise<void> {
    for (const [index, fault] of faults.entries()) {
      if (fault.at !== point || !this.targets(fault)) continue;
      if (await this.fires(new RunFigureKeys(this.options.keyPrefix, settings.runId), index, fault)) await this.inject(fault, point, settings, requestId);
    }
  }

  private async fires(keys: RunFigureKeys, index: number, fault: FaultSettings): Promise<boolean> {
    const redis = this.connections.control;
    if (fault.probability !== undefined) return Math.random() < fault.probability;
    if (fault.every !== undefined) {
      const passages = await redis.incr(keys.faultPassages(index));
      // The first passage gives the counter the run figures' lifetime; the later ones cost the INCR alone.
      if (passages === 1) await redis.expire(keys.faultPassages(index), RUN_FIGURES_TTL_SECONDS);
      return passages % fault.every === 0;
    }
    return (await redis.set(keys.faultPassages(index), this.options.instanceId, 'EX', RUN_FIGURES_TTL_SECONDS, 'NX')) === 'OK';
  }

  private async inject(fault: FaultSettings, point: FaultPointName, settings: ProductRunSettings, requestId: string): Promise<void> {
    const { runId } = settings;
    const startedAt = preciseNow();
    const event = (endedAt: number | null): FaultEvent => ({
      kind: fault.kind,
      at: point,
      instance: this.options.instanceId,
      requestId: requestId || null,
      startedAt,
      endedAt,
      ...(fault.kind === 'store-cut' ? { store: fault.store ?? 'redis' } : {}),
    });
    switch (fault.kind) {
      case 'pause':
        await sleep(fault.durationMs!);
        break;
      case 'stop-the-world':
        // Blocks the thread itself, as a long GC pause does: no timer (the watchdog's renewal) runs meanwhile.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, fault.durationMs!);
        // And, as after a GC pause, the holder goes on at once: awaiting the event's write here would let the
        // overdue renewal run first and stop the holder (lock_lost) before the stale write it should make.
        void recordFaultEvent(this.connections, this.options.keyPrefix, runId, event(preciseNow())).catch((error: Error) =>
          this.logger.warn(`could not record the stop-the-world of run ${runId}: ${error.message}`),
        );
        return;
      case 'store-cut': {
        const store = fault.store ?? 'redis';
        const storeCut = store === 'mysql' ? this.mysqlCut : this.redisCut;
        // Runs refuse store-cut when an instance has no StoreCut; a reset by hand may still name one.
        if (!storeCut) throw new Error(`store-cut of ${store} at ${point}: instance ${this.options.instanceId} was not started with the store proxy`);
        await storeCut.cut(fault.durationMs!);
        break;
      }
      case 'failover': {
        // A lock held on the RedLock nodes has no master to fail over: what a failover takes from it is
        // one node of five, back empty (RedlockNodeRestart.loseOneNode says which).
        const nodes = this.options.lockServices?.['redis-nodes'] ? this.redlockNodes() : null;
        if (!(await nodes?.loseOneNode(this.lockKey(settings)))) await this.failoverGroup().failOver();
        break;
      }
      case 'node-restart':
        await this.redlockNodes().restartAHolder(this.lockKey(settings));
        break;
      case 'clock-jump':
        await this.redlockNodes().jumpAClock(this.lockKey(settings), fault.offsetMs!);
        break;
      case 'crash':
        // Recorded before dying: the run accepts the death of an instance whose crash it finds recorded.
        await recordFaultEvent(this.connections, this.options.keyPrefix, runId, event(null));
        // A flush already waiting for this instance's figures stops waiting (the crash may come during the drain).
        await announceCrash(this.connections.control, { keyPrefix: this.options.keyPrefix, runId, instanceId: this.options.instanceId });
        process.kill(process.pid, 'SIGKILL');
        return;
      default:
        return;
    }
    await recordFaultEvent(this.connections, this.options.keyPrefix, runId, event(preciseNow()));
  }
}

/** Appends a fault event to the run's list (the run's executor also records the run-wide ones). */
export async function recordFaultEvent(connections: RedisConnections, keyPrefix: string, runId: string, event: FaultEvent): Promise<void> {
  const key = new RunFigureKeys(keyPrefix, runId).faultEvents;
  await connections.control.multi().rpush(key, JSON.stringify(event)).expire(key, RUN_FIGURES_TTL_SECONDS).exec();
}
