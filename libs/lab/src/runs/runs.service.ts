import { reportQueueErrors, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { NOOP_TARGET, ORDER_OUTCOMES, STRATEGY_NAMES, ceilingWarmUp, type CreatedRunView, type OrderOutcome, type OutcomeCounts, type RunBatchView, type RunParams, type RunView } from '@oversell/contracts';
import type { Queue } from 'bullmq';
import { randomInt, randomUUID } from 'node:crypto';
import { In, IsNull, type FindOptionsWhere, type Repository } from 'typeorm';
import { LAB_OPTIONS, type LabOptions } from '../lab.options';
import { MetricsService } from '../figures/metrics.service';
import { targetFaults } from '../faults/fault-targets';
import { checkDoubleClickLoad } from './double-click-load';
import { ApiError } from '../error-body';
import { InstanceRegistry } from '../instances/instance-registry';
import type { RunBatchDto } from './run-params.dto';
import { CONTROL_DATA_SOURCE, RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { RunTokens } from './run-tokens';
import { RUNS_QUEUE, type RunJobData } from './runs.constants';

/** Lab runs use products from here up, so they never touch a product someone reset by hand. */
const RUN_PRODUCT_IDS_FROM = 1_000_000_000;

@Injectable()
export class RunsService implements OnModuleInit {
  constructor(
    @InjectRepository(RunEntity, CONTROL_DATA_SOURCE) private readonly runs: Repository<RunEntity>,
    @InjectQueue(RUNS_QUEUE) private readonly queue: Queue<RunJobData>,
    private readonly bus: RunEventsBus,
    private readonly tokens: RunTokens,
    @Inject(LAB_OPTIONS) private readonly app: LabOptions,
    @Inject(STOCK_OPTIONS) private readonly stock: StockOptions,
    private readonly instances: InstanceRegistry,
    private readonly metrics: MetricsService,
  ) {
    queue.on('error', reportQueueErrors('run queue'));
  }

  /**
   * This lab's runs, and the finished ones from before runs were marked with their lab (their lab is not
   * known; one still queued or running then belongs to a session nobody will finish it in).
   */
  private get ownRuns(): FindOptionsWhere<RunEntity>[] {
    return [{ lab: this.stock.keyPrefix }, { lab: IsNull(), status: In(['completed', 'failed']) }];
  }

  /** This instance's admissions, one at a time, so two posts cannot both take the queue's last place. */
  private admitting: Promise<unknown> = Promise.resolve();

  /** One run at a time across every worker of every instance: runs must not disturb each other's figures. */
  async onModuleInit(): Promise<void> {
    await this.queue.setGlobalConcurrency(1);
    this.metrics.watchRunQueue(() => this.waitingRuns());
  }

  /** Runs queued and not yet started: what RUN_QUEUE_LIMIT bounds and /metrics shows as the queue's depth. */
  private waitingRuns(): Promise<number> {
    return this.queue.getJobCountByTypes('waiting', 'prioritized', 'delayed');
  }

  /** Queues a run; its token goes to the creator only (GET /api/runs never shows it). */
  async create(params: RunParams): Promise<CreatedRunView> {
    const faults = await this.targetFaults(params);
    return this.admit(1, () => this.queueRun({ ...params, ...faults }));
  }

  /**
   * 400 now, rather than a failed run later: faults the live instances cannot take (see targetFaults), a
   * load the faults make invalid. The faults come back with the instances they name resolved to ids, kept
   * with the run: the instances may change while it waits in the queue.
   */
  private async targetFaults(params: Pick<RunParams, 'faults' | 'load'>): Promise<Pick<RunParams, 'faults'>> {
    checkDoubleClickLoad(params);
    return params.faults?.length ? { faults: targetFaults(params.faults, await this.instances.live()) } : {};
  }

  private async queueRun(params: RunParams): Promise<CreatedRunView> {
    const run = this.runs.create({
      id: randomUUID(),
      lab: this.stock.keyPrefix,
      status: 'queued',
      params,
      productId: params.productId ?? RUN_PRODUCT_IDS_FROM + randomInt(1_000_000_000),
      batchId: params.batchId ?? null,
      startedAt: null,
      finishedAt: null,
      failure: null,
      result: null,
    });
    const runToken = await this.tokens.issue(run.id);
    await this.runs.insert(run);
    await this.queue.add('run', { runId: run.id, runToken }, { jobId: run.id, removeOnComplete: 1000, removeOnFail: 1000 });
    await this.bus.publish({ type: 'status', runId: run.id, status: 'queued' });
    return { ...(await this.get(run.id)), runToken };
  }

  /** The warm-up and the no-op ceiling first, then every strategy (or the chosen ones), all with the same scenario. */
  async createBatch(request: RunBatchDto): Promise<RunBatchView> {
    const batchId = randomUUID();
    const { faults } = await this.targetFaults(request);
    const { strategies, includeCeiling, faults: _asked, ...scenario } = request;
    const ceiling: RunParams[] = includeCeiling === false ? [] : [{ ...scenario, ...ceilingWarmUp(scenario.load) }, { ...scenario, strategy: NOOP_TARGET }];
    const params: RunParams[] = [...ceiling, ...(strategies ?? STRATEGY_NAMES).map((strategy) => ({ ...scenario, strategy, ...(faults ? { faults } : {}) }))];
    return this.admit(params.length, async () => {
      const runs: CreatedRunView[] = [];
      for (const run of params) runs.push(await this.queueRun({ ...run, batchId }));
      return { batchId, runs };
    });
  }

  /**
   * Queues only if `count` more runs fit under RUN_QUEUE_LIMIT waiting runs (the running one aside):
   * each run makes the lab generate up to minutes of load, and a queue that grows without bound is
   * hours of it. Beyond the limit: 429 run_queue_full, and nothing of the request is queued. Posts
   * to two instances at the same moment may both pass the check: the limit is a guard, not a quota.
   */
  private admit<T>(count: number, queue: () => Promise<T>): Promise<T> {
    const admitted = this.admitting.then(async () => {
      const waiting = await this.waitingRuns();
      const limit = this.app.runQueueLimit;
      if (waiting + count > limit) {
        const asked = count === 1 ? 'a run' : `a batch of ${count} runs`;
        throw new ApiError(429, 'run_queue_full', {
          en: `the run queue is full: ${waiting} of at most ${limit} runs are waiting, no room for ${asked}; nothing of this request was queued (runs queued by earlier requests stay queued); retry once runs have finished (RUN_QUEUE_LIMIT)`,
          'zh-CN': `运行队列已满：最多 ${limit} 个，已有 ${waiting} 个在等待，放不下${count === 1 ? '这 1 个运行' : `这批 ${count} 个运行`}；本次请求没有任何运行入队（之前请求排入的运行仍在队列中）；请等运行结束后重试（RUN_QUEUE_LIMIT）`,
        });
      }
      return queue();
    });
    this.admitting = admitted.catch(() => undefined);
    return admitted;
  }

  /** Newest first; lock events are left out of the list (GET /api/runs/:id has them). */
  async list(limit: number): Promise<RunView[]> {
    const rows = await this.runs.find({ where: this.ownRuns, order: { createdAt: 'DESC' }, take: limit });
    return rows.map((row) => toView(row, { withLockEvents: false }));
  }

  async get(id: string): Promise<RunView> {
    const row = await this.runs.findOneBy(this.ownRuns.map((own) => ({ ...own, id })));
    if (!row) throw new ApiError(404, 'run_not_found', { en: `run ${id} does not exist in this lab`, 'zh-CN': `本实验室中不存在运行 ${id}` }, { field: 'id' });
    return toView(row, { withLockEvents: true });
  }
}

export function toView(row: RunEntity, { withLockEvents }: { withLockEvents: boolean }): RunView {
  return {
    id: row.id,
    status: row.status,
    params: row.params,
    productId: row.productId,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    failure: row.failure,
    result: row.result && { ...row.result, counts: everyOutcome(row.result.counts), ...(withLockEvents ? {} : { lockEvents: [] }) },
  };
}

/** A result stored before an outcome existed (replayed) has no count of it: 0, so every outcome is a number. */
function everyOutcome(counts: OutcomeCounts): OutcomeCounts {
  return { ...(Object.fromEntries(ORDER_OUTCOMES.map((outcome) => [outcome, 0])) as Record<OrderOutcome, number>), ...counts };
}
