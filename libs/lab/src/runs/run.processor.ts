import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { reportQueueErrors } from '@oversell/stock';
import type { Job, Queue, WorkerOptions } from 'bullmq';
import { LAB_OPTIONS, type LabOptions } from '../lab.options';
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
    @Inject(LAB_OPTIONS) private readonly app: LabOptions,
    @InjectQueue(RUNS_QUEUE) private readonly queue: Queue<RunJobData>,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    // Named after its instance, which BullMQ writes on each job it takes (processedBy): a run whose worker
    // died is failed naming that instance. Read when the worker fetches a job, so set before it runs.
    (this.worker.opts as WorkerOptions).name = this.app.instanceId;
    if (this.app.runWorker) void this.worker.run();
  }

  process(job: Job<RunJobData>, token?: string): Promise<void> {
    return this.executor.execute(job.data.runId, job.data.runToken, () => this.holds(job, token));
  }

  /** The job's lock is still this worker's: extended by a lock duration, so it cannot lapse while the caller writes. */
  private async holds(job: Job, token: string | undefined): Promise<boolean> {
    return token !== undefined && (await job.extendLock(token, this.worker.opts.lockDuration!)) === 1;
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    reportError(error);
  }

  @OnWorkerEvent('failed')
  async onFailed(job: Job<RunJobData> | undefined, error: Error): Promise<void> {
    if (job) await this.executor.fail(job.data.runId, error.message);
  }

  /**
   * BullMQ's stalled check found the job's lock lapsed (its worker died, or was too busy to renew it).
   * With maxStalledCount 0 the job fails when it is next fetched, which may be never if no worker is
   * left; this event is the one said at once. The job id is the run id.
   */
  @OnWorkerEvent('stalled')
  async onStalled(jobId: string): Promise<void> {
    const worker = (await this.queue.getJob(jobId).catch(() => undefined))?.processedBy;
    await this.executor.fail(jobId, `the run worker${worker ? ` on ${worker}` : ''} stopped renewing the run's queue job (stalled: its instance died, or was too busy to renew it): BullMQ failed the job`);
  }
}

const reportError = reportQueueErrors('run worker');
