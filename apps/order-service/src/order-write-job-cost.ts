/**
 * What one order-write job costs BullMQ on this machine, apart from everything else an order does:
 * `node apps/order-service/dist/order-write-job-cost.js [--jobs 20000] [--connections 500]` (`--help` says more).
 * Adds that many jobs shaped as the lab's (its job options, a job id per order) from as many concurrent
 * callers as the bench has connections, then lets one worker with the lab's writer options take and
 * finish them with nothing to write, and prints the CPU each side spent a job: this process's (from
 * process.cpuUsage) and the Redis server's (from INFO cpu). The queue lives under a key prefix of its
 * own on REDIS_HOST:REDIS_PORT (default 127.0.0.1:6379) and is removed afterwards.
 */
import { cliCommand, exitOnCliError, parseCommand, valueOption, wholeNumber } from '@oversell/cli';
import { ORDER_WRITE_JOB_OPTIONS, ORDER_WRITER_OPTIONS, type QueuedOrder } from '@oversell/stock';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';

/** CPU µs a job in one phase, of this process and of the Redis server, and how many jobs a second it went through. */
export interface PhaseCost {
  processUs: number;
  redisUs: number;
  jobsPerSec: number;
}

export interface JobCost {
  jobs: number;
  /** The queue's key prefix (its own, removed afterwards). */
  prefix: string;
  /** CPU µs a job: the process that adds, and Redis running the add script. */
  add: PhaseCost;
  /** CPU µs a job: the worker taking and finishing it, and Redis running those scripts (the worker's start included). */
  work: PhaseCost;
  /** Jobs the worker finished: each once, or the measurement fails. */
  finished: number;
  /** Jobs left in the queue after the worker finished (waiting, active, delayed, failed): 0 when every job was taken and finished. */
  left: number;
}

const JOB_COST_QUEUE = 'order-write-job-cost';

export async function measureJobCost(jobs: number, connections: number, redis: { host: string; port: number }): Promise<JobCost> {
  const connection = { ...redis, maxRetriesPerRequest: null };
  const prefix = `ol-jobcost-${process.pid}-${Date.now()}`;
  const admin = new IORedis(redis);
  const queue = new Queue<QueuedOrder>(JOB_COST_QUEUE, { connection, prefix });
  let worker: Worker<QueuedOrder> | undefined;
  try {
    await queue.waitUntilReady();
    let added = 0;
    const addCost = await measured(admin, async () => {
      const caller = async () => {
        while (added < jobs) {
          added++;
          const requestId = randomUUID();
          const order: QueuedOrder = { productId: 1, quantity: 1, strategy: 'lua-decrement', runId: prefix, idempotencyKey: null, requestId, queuedAt: Date.now() };
          await queue.add('order', order, { ...ORDER_WRITE_JOB_OPTIONS, jobId: requestId });
        }
      };
      await Promise.all(Array.from({ length: connections }, caller));
    });
    // Started only now, so the adding above is measured alone.
    const finishedIds = new Set<string>();
    const workCost = await measured(admin, async () => {
      await new Promise<void>((resolve, reject) => {
        worker = new Worker<QueuedOrder>(JOB_COST_QUEUE, async () => undefined, { ...ORDER_WRITER_OPTIONS, connection, prefix });
        worker.on('completed', (job) => {
          if (finishedIds.has(job.id!)) reject(new Error(`job ${job.id} finished twice`));
          finishedIds.add(job.id!);
          if (finishedIds.size === jobs) resolve();
        });
        worker.on('failed', (job, error) => reject(new Error(`job ${job?.id} failed: ${error.message}`)));
        worker.on('error', reject);
      });
    });
    await worker?.close();
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
    return {
      jobs,
      prefix,
      add: perJob(addCost, jobs),
      work: perJob(workCost, jobs),
      finished: finishedIds.size,
      left: Object.values(counts).reduce((sum, n) => sum + n, 0),
    };
  } finally {
    // Each step on its own: one that fails must not leave the queue's keys behind.
    await worker?.close().catch(() => undefined);
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close().catch(() => undefined);
    admin.disconnect();
  }
}

interface Spent {
  processUs: number;
  redisUs: number;
  ms: number;
}

/** The CPU this process and the Redis server spent while `phase` ran, and how long it took. */
async function measured(admin: IORedis, phase: () => Promise<void>): Promise<Spent> {
  const [cpu, redis, startedAt] = [process.cpuUsage(), await redisCpuUs(admin), Date.now()];
  await phase();
  const spent = process.cpuUsage(cpu);
  return { processUs: spent.user + spent.system, redisUs: (await redisCpuUs(admin)) - redis, ms: Date.now() - startedAt };
}

function perJob(spent: Spent, jobs: number): PhaseCost {
  const round = (n: number) => Math.round(n * 10) / 10;
  return { processUs: round(spent.processUs / jobs), redisUs: round(spent.redisUs / jobs), jobsPerSec: Math.round(jobs / (spent.ms / 1000)) };
}

/** The Redis server's CPU time so far (user + system), in µs. */
async function redisCpuUs(admin: IORedis): Promise<number> {
  const info = await admin.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

/** The measurement's options; a fresh command per parse (commander keeps the values it parsed). */
export function jobCostCommand() {
  return cliCommand('order-write-job-cost', {
    en: 'What one order-write BullMQ job costs this process and the Redis server in CPU, apart from everything else an order does.',
    zh: '测量一个订单写入 BullMQ 任务让本进程和 Redis 服务器各花多少 CPU，不计订单的其余工作。',
  })
    .addOption(valueOption('--jobs <n>', { en: 'jobs added, then taken and finished', zh: '先添加、再取出并完成的任务数' }, wholeNumber(1)).default(20_000))
    .addOption(valueOption('--connections <n>', { en: 'concurrent callers adding them', zh: '并发添加任务的调用方数' }, wholeNumber(1)).default(500));
}

export function parseJobCostArgs(args: string[]): { jobs: number; connections: number } {
  const values = parseCommand(jobCostCommand(), args);
  return { jobs: values.jobs as number, connections: values.connections as number };
}

if (require.main === module) {
  // Parsed inside the promise: a usage error is answered as one, not thrown as a stack trace.
  Promise.resolve(process.argv.slice(2))
    .then(async (args) => {
      const { jobs, connections } = parseJobCostArgs(args);
      const cost = await measureJobCost(jobs, connections, { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) });
      console.log(`${cost.jobs} order-write jobs, ${connections} callers adding, one worker (${ORDER_WRITER_OPTIONS.concurrency} at once) with nothing to write:`);
      console.log('| phase | jobs/s | this process µs/job | Redis µs/job | both µs/job |');
      console.log('|---|---:|---:|---:|---:|');
      for (const [name, phase] of [['add', cost.add], ['take and finish', cost.work]] as const) {
        console.log(`| ${name} | ${phase.jobsPerSec} | ${phase.processUs} | ${phase.redisUs} | ${(phase.processUs + phase.redisUs).toFixed(1)} |`);
      }
      console.log(`one job in all: ${(cost.add.processUs + cost.add.redisUs + cost.work.processUs + cost.work.redisUs).toFixed(1)} µs of CPU; jobs left in the queue: ${cost.left}`);
      process.exit(cost.left ? 1 : 0);
    })
    .catch(exitOnCliError);
}
