import { ORDER_OUTCOMES, type OrderOutcome, type StrategyName } from '@oversell/contracts';
import type { FaultPoint } from '../fault-points';
import { fork, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export interface WorkerStart {
  type: 'start';
  worker: number;
  keyPrefix: string;
  productId: number;
  strategy: StrategyName;
  quantity: number;
  requests: number;
  inFlight: number;
  lockWaitTimeoutMs: number;
  /** The process SIGKILLs itself when an order reaches this point: a holder that dies mid-section. */
  crashAt?: FaultPoint;
  /** The process blocks its whole event loop when the order reaches this point (stop-the-world.ts). */
  freezeAt?: { point: FaultPoint; frozenFile: string; wakeFile: string };
}

export interface WorkerDone {
  type: 'done';
  outcomes: Record<OrderOutcome, number>;
  /** Optimistic version checks that failed, summed over the orders (each retried or answered conflict). */
  conflicts: number;
  errors: string[];
}

export interface ConcurrentOrders {
  processes: number;
  requestsPerProcess: number;
  /** Orders each process keeps in flight at once. */
  inFlight: number;
  keyPrefix: string;
  productId: number;
  strategy: StrategyName;
  quantity?: number;
  lockWaitTimeoutMs?: number;
}

export interface ConcurrentOrdersResult {
  outcomes: Record<OrderOutcome, number>;
  conflicts: number;
  errors: string[];
}

const WORKER = join(__dirname, 'order-worker.ts');
const TSCONFIG = resolve(__dirname, '../../tsconfig.json');

/**
 * Places orders from several OS processes at once. Every process connects, warms up and reports
 * ready; only then are all told to go, so their orders overlap for real.
 */
export async function runOrdersAcrossProcesses(spec: ConcurrentOrders): Promise<ConcurrentOrdersResult> {
  const children: ChildProcess[] = [];
  const clean = new Set<ChildProcess>();
  try {
    const finished = [];
    const ready = [];
    for (let worker = 0; worker < spec.processes; worker++) {
      const child = takeWorker();
      children.push(child);
      const messages = collect(child);
      ready.push(messages('ready'));
      finished.push((messages('done') as Promise<WorkerDone>).then((done) => (clean.add(child), done)));
      const start: WorkerStart = {
        type: 'start',
        worker,
        keyPrefix: spec.keyPrefix,
        productId: spec.productId,
        strategy: spec.strategy,
        quantity: spec.quantity ?? 1,
        requests: spec.requestsPerProcess,
        inFlight: spec.inFlight,
        lockWaitTimeoutMs: spec.lockWaitTimeoutMs ?? 30_000,
      };
      child.send(start);
    }
    await Promise.all(ready);
    for (const child of children) child.send({ type: 'go' });
    const results = await Promise.all(finished);
    const outcomes = Object.fromEntries(ORDER_OUTCOMES.map((o) => [o, 0])) as Record<OrderOutcome, number>;
    for (const result of results) for (const o of ORDER_OUTCOMES) outcomes[o] += result.outcomes[o];
    return { outcomes, conflicts: results.reduce((sum, r) => sum + r.conflicts, 0), errors: results.flatMap((r) => r.errors) };
  } finally {
    for (const child of children) {
      if (clean.has(child) && child.exitCode === null && child.signalCode === null) idleWorkers.push(child);
      else if (child.exitCode === null) child.kill('SIGKILL');
    }
    // Idle, they keep neither jest nor this test file alive; each exits when its channel closes.
    for (const child of idleWorkers) {
      child.unref();
      child.channel?.unref();
    }
  }
}

/**
 * Order workers that finished a run cleanly, kept for the next one in this test file: each process
 * opens a fresh StockModule per run, so only the seconds of loading modules are saved.
 */
const idleWorkers: ChildProcess[] = [];

function takeWorker(): ChildProcess {
  const child = idleWorkers.pop();
  if (!child) return forkWorker();
  child.ref();
  child.channel?.ref();
  return child;
}

/** Stops the idle order workers (useStockTestApp does, after the file's tests). */
export function stopIdleOrderWorkers(): void {
  for (const child of idleWorkers.splice(0)) child.kill('SIGKILL');
}

export function forkWorker(): ChildProcess {
  return fork(WORKER, [], {
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, TS_NODE_PROJECT: TSCONFIG },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * Places one order in an OS process of its own that kills itself (SIGKILL: no finally blocks, no
 * release, no goodbye to Redis or MySQL) the moment the order reaches `at`. Resolves once the process
 * is dead; rejects if it finished the order without reaching that point.
 */
export async function placeOrderAndDieAt(spec: { keyPrefix: string; productId: number; strategy: StrategyName; at: FaultPoint; quantity?: number }): Promise<void> {
  const child = forkWorker();
  try {
    const messages = collect(child);
    const ready = messages('ready');
    const exited = new Promise<NodeJS.Signals | null>((resolvePromise) => child.once('exit', (_code, signal) => resolvePromise(signal)));
    const start: WorkerStart = {
      type: 'start',
      worker: 0,
      keyPrefix: spec.keyPrefix,
      productId: spec.productId,
      strategy: spec.strategy,
      quantity: spec.quantity ?? 1,
      requests: 1,
      inFlight: 1,
      lockWaitTimeoutMs: 30_000,
      crashAt: spec.at,
    };
    child.send(start);
    await ready;
    child.send({ type: 'go' });
    const signal = await exited;
    if (signal !== 'SIGKILL') throw new Error(`the order finished without reaching ${spec.at} (exit signal ${signal})`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Resolves the first message of a type; rejects if the child fails or exits before sending it. */
export function collect(child: ChildProcess): (type: string) => Promise<unknown> {
  return (type) =>
    new Promise((resolvePromise, reject) => {
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type === type) {
          cleanup();
          resolvePromise(message);
        } else if (message.type === 'failed') {
          cleanup();
          reject(new Error(`order worker failed: ${message.message}`));
        }
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`order worker exited (${code}) before "${type}"`));
      };
      const cleanup = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
    });
}
