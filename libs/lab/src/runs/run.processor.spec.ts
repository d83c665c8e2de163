import type { RunParams, RunResult } from '@oversell/contracts';
import { DEFAULT_STOCK_OPTIONS, mysqlDataSourceOptions, RedisConnections, runMigrationsExclusively, type StockOptions } from '@oversell/stock';
import { freshKeyPrefix, testMysqlSettings, testRedisOptions, until } from '@oversell/stock/testing';
import { Queue, Worker, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import type { LabOptions } from '../lab.options';
import { bullPrefix as bullPrefixOf } from '../redis-keys';
import { RUN_ENTITIES, RUN_MIGRATIONS, RunEntity } from './run.entity';
import { RunEventsBus } from './run-events.bus';
import { RunExecutor } from './run-executor';
import { RunProcessor } from './run.processor';
import { RUNS_QUEUE, type RunJobData } from './runs.constants';

/**
 * The run worker on a real BullMQ queue (Redis) and the real runs table (MariaDB). The measuring itself
 * is held at a gate the test opens, so the test can make the job stall while the run is in progress.
 */
const options: StockOptions = { ...DEFAULT_STOCK_OPTIONS, keyPrefix: freshKeyPrefix(), instanceId: 'worker', redis: testRedisOptions() };
const bullPrefix = bullPrefixOf(options.keyPrefix);
/** The test Redis by address: BullMQ makes its own connections. */
const bullConnection = () => ({ host: options.redis.host, port: options.redis.port });
let dataSource: DataSource;
let runs: Repository<RunEntity>;
let connections: RedisConnections;
let bus: RunEventsBus;
let queue: Queue<RunJobData>;
let worker: Worker<RunJobData>;
let processing: Promise<void>[];
/** Resolves, once the run is measuring, to the function that ends its measuring with a result. */
let measuring: Promise<(result: RunResult) => void>;

beforeAll(async () => {
  dataSource = await new DataSource(mysqlDataSourceOptions(testMysqlSettings(), { entities: RUN_ENTITIES, migrations: RUN_MIGRATIONS })).initialize();
  // The runs table, as the service makes it: on a fresh database nothing else in this project has.
  await runMigrationsExclusively(dataSource);
  runs = dataSource.getRepository(RunEntity);
  connections = new RedisConnections(options);
  bus = new RunEventsBus(connections, options);
  queue = new Queue(RUNS_QUEUE, { connection: bullConnection(), prefix: bullPrefix });
});

beforeEach(() => {
  // Only what execute() uses once measuring is done: the runs table and the event bus.
  const executor = new RunExecutor(runs, undefined as never, undefined as never, bus, connections, undefined as never, options);
  let started: (finish: (result: RunResult) => void) => void;
  measuring = new Promise((resolve) => (started = resolve));
  jest.spyOn(executor as unknown as { measure: () => Promise<RunResult> }, 'measure').mockImplementation(() => new Promise((finish) => started(finish)));
  const processor = new RunProcessor(executor, { runWorker: false, instanceId: 'instance-7' } as LabOptions, queue);
  processing = [];
  // As @Processor configures it (maxStalledCount 0), with a stalled check fast enough for a test.
  worker = new Worker<RunJobData>(RUNS_QUEUE, (job, token) => track(processor.process(job, token)), { connection: bullConnection(), prefix: bullPrefix, concurrency: 1, maxStalledCount: 0, stalledInterval: 100 });
  (processor as unknown as { _worker: Worker })._worker = worker;
  processor.onApplicationBootstrap();
  worker.on('failed', (job, error) => void processor.onFailed(job as Job<RunJobData> | undefined, error));
  worker.on('stalled', (jobId) => void processor.onStalled(jobId));
  // BullMQ reports here that it could not complete a job whose lock it no longer holds.
  worker.on('error', () => undefined);
});

afterEach(async () => {
  await worker.close();
});

afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  await bus.onApplicationShutdown();
  await connections.onApplicationShutdown();
  await dataSource.destroy();
});

function track(run: Promise<void>): Promise<void> {
  processing.push(run);
  return run;
}

async function queueRun(): Promise<string> {
  const runId = randomUUID();
  await runs.insert({ id: runId, status: 'queued', params: { strategy: 'noop', load: [] } as unknown as RunParams, productId: 1 });
  await queue.add('run', { runId, runToken: randomUUID() }, { jobId: runId });
  return runId;
}

const RESULT = { counts: { attempts: 1 } } as unknown as RunResult;

it('records the result of a run whose job it still holds', async () => {
  const runId = await queueRun();
  (await measuring)(RESULT);
  await Promise.all(processing);
  expect(await runs.findOneByOrFail({ id: runId })).toMatchObject({ status: 'completed', result: RESULT, failure: null });
});

it('does not record a run completed once BullMQ took its job back as stalled', async () => {
  const runId = await queueRun();
  const finish = await measuring;
  await connections.commands.del(`${bullPrefix}:${RUNS_QUEUE}:${runId}:lock`);
  // The lock lapses as it does when the worker cannot renew it in time: BullMQ's stalled check takes the
  // job back (to fail it, maxStalledCount being 0, when it is next fetched).
  await until(async () => (await queue.getJobState(runId)) !== 'active', 'BullMQ takes the stalled job back');
  // The stalled event fails the run at once, named after the instance whose worker took the job (its
  // process died, in a lab, and the launcher restarts it). Awaited before the measuring ends: otherwise
  // the worker's own check below may fail the run first, with its own words.
  await until(async () => (await runs.findOneByOrFail({ id: runId })).status === 'failed', 'the stalled run is failed');
  const failedAsStalled = { status: 'failed', result: null, failure: expect.stringMatching(/^the run worker on instance-7 stopped renewing .*\(stalled/) };
  expect(await runs.findOneByOrFail({ id: runId })).toMatchObject(failedAsStalled);
  // The worker, busy rather than dead, then finishes measuring: its result is not recorded.
  finish(RESULT);
  await Promise.all(processing);
  expect(await runs.findOneByOrFail({ id: runId })).toMatchObject(failedAsStalled);
});
