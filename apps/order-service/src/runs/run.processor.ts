import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { appConfig, type AppConfig } from '../config/configuration';
import { RunExecutor } from './run-executor';
import { RUNS_QUEUE, type RunJobData } from './runs.constants';

/**
 * Takes runs off the queue one at a time. Only instances started with RUN_WORKER=true work (the
 * launcher enables it on one); a run whose worker died is not retried (maxStalledCount 0) but failed.
 */
@Processor(RUNS_QUEUE, { concurrency: 1, autorun: false, maxStalledCount: 0 })
export class RunProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly executor: RunExecutor,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.app.runWorker) void this.worker.run();
  }

  process(job: Job<RunJobData>): Promise<void> {
    return this.executor.execute(job.data.runId);
  }

  @OnWorkerEvent('failed')
  async onFailed(job: Job<RunJobData> | undefined, error: Error): Promise<void> {
    if (job) await this.executor.fail(job.data.runId, error.message);
  }
}
