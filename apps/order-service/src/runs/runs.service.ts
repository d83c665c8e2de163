import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { NOOP_TARGET, STRATEGY_NAMES, type RunBatchView, type RunParams, type RunTarget, type RunView } from '@oversell/contracts';
import type { Queue } from 'bullmq';
import { randomInt, randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { ApiError } from '../http/error-body';
import type { RunBatchDto } from './run-params.dto';
import { RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { RUNS_QUEUE, type RunJobData } from './runs.constants';

/** Lab runs use products from here up, so they never touch a product someone reset by hand. */
const RUN_PRODUCT_IDS_FROM = 1_000_000_000;

@Injectable()
export class RunsService implements OnModuleInit {
  constructor(
    @InjectRepository(RunEntity) private readonly runs: Repository<RunEntity>,
    @InjectQueue(RUNS_QUEUE) private readonly queue: Queue<RunJobData>,
    private readonly bus: RunEventsBus,
  ) {}

  /** One run at a time across every worker of every instance: runs must not disturb each other's figures. */
  async onModuleInit(): Promise<void> {
    await this.queue.setGlobalConcurrency(1);
  }

  async create(params: RunParams): Promise<RunView> {
    const run = this.runs.create({
      id: randomUUID(),
      status: 'queued',
      params,
      productId: params.productId ?? RUN_PRODUCT_IDS_FROM + randomInt(1_000_000_000),
      batchId: params.batchId ?? null,
      startedAt: null,
      finishedAt: null,
      failure: null,
      result: null,
    });
    await this.runs.insert(run);
    await this.queue.add('run', { runId: run.id }, { jobId: run.id, removeOnComplete: 1000, removeOnFail: 1000 });
    await this.bus.publish({ type: 'status', runId: run.id, status: 'queued' });
    return this.get(run.id);
  }

  /** The no-op ceiling first, then every strategy (or the chosen ones), all with the same scenario. */
  async createBatch(request: RunBatchDto): Promise<RunBatchView> {
    const batchId = randomUUID();
    const { strategies, includeCeiling, ...scenario } = request;
    const ceiling: RunTarget[] = includeCeiling === false ? [] : [NOOP_TARGET];
    const targets: RunTarget[] = [...ceiling, ...(strategies ?? STRATEGY_NAMES)];
    const runs: RunView[] = [];
    for (const strategy of targets) runs.push(await this.create({ ...scenario, strategy, batchId }));
    return { batchId, runs };
  }

  /** Newest first; lock events are left out of the list (GET /api/runs/:id has them). */
  async list(limit: number): Promise<RunView[]> {
    const rows = await this.runs.find({ order: { createdAt: 'DESC' }, take: limit });
    return rows.map((row) => toView(row, { withLockEvents: false }));
  }

  async get(id: string): Promise<RunView> {
    const row = await this.runs.findOneBy({ id });
    if (!row) throw new ApiError(404, 'run_not_found', `run ${id} does not exist`, { field: 'id' });
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
    result: row.result && !withLockEvents ? { ...row.result, lockEvents: [] } : row.result,
  };
}
