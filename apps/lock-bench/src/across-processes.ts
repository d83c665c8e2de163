import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LockName } from './locks-under-test';
import { cpuMsOf } from './process-cpu';
import type { SectionKeys, SectionSettings, SectionTally } from './section-loop';
import { mergeWaits } from './wait-histogram';

export interface ProcessStart {
  type: 'start';
  lock: LockName;
  keys: SectionKeys;
  /** Keys of their own for the warm-up, so it leaves the measured counter untouched. */
  warmupKeys: SectionKeys;
  settings: SectionSettings;
  /** ioredis's enableAutoPipelining on the process's Redis connections (bench:locks --auto-pipelining). */
  autoPipelining: boolean;
}

/** A process's tally as it crosses IPC: its acquire waits as an encoded HdrHistogram. */
export type ProcessDone = { type: 'done'; waits: string } & Omit<SectionTally, 'waits'>;

export type RunSpec = Omit<ProcessStart, 'type'>;

const EXIT_GRACE_MS = 5000;

// Plain node on dist/, also under ts-jest: the test target builds first (package.json), and ts-node
// spent ~3 s of CPU compiling each process's modules, 4 processes per lock. Source only when unbuilt.
const BUILT_MAIN = resolve(__dirname, '..', 'dist', 'section-process.js');
const COMPILED = __filename.endsWith('.js') || existsSync(BUILT_MAIN);
const PROCESS_MAIN = COMPILED ? BUILT_MAIN : join(__dirname, 'section-process.ts');
// The environment as it is at the fork, passed explicitly: under jest, process.env is the test file's
// copy, and a server started for the run (etcd) is named only there.
const forkOptions = () => ({
  env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../tsconfig.json') },
  ...(COMPILED ? {} : { execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'] }),
});

/** The run's tally, and the CPU (ms, /proc/<pid>/stat) its processes and the Redis server spent in it. */
export type ProcessesTally = SectionTally & { cpuMs: { processes: number | null; redis: number | null } };

/**
 * Runs the sections in `processes` OS processes, each with its own connections and lock instance.
 * Every process connects and warms up, then reports ready; only then are all told to go, so their
 * sections overlap for real. The tallies are summed; elapsed is the slowest process's. CPU is read
 * from "go" to each process's "done", and to the last "done" for `redisPid` (undefined: not read).
 */
export async function runAcrossProcesses(processes: number, spec: RunSpec, redisPid?: number): Promise<ProcessesTally> {
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < processes; i++) {
      const child = fork(PROCESS_MAIN, [], { ...forkOptions(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
    }
    const ready = children.map((child) => expectMessage(child, 'ready'));
    for (const child of children) child.send({ type: 'start', ...spec } satisfies ProcessStart);
    await Promise.all(ready);
    // Listening before "go" is sent: a message that arrives with no listener is gone.
    const redisBefore = cpuMsOf(redisPid);
    const cpuBefore = children.map((child) => cpuMsOf(child.pid));
    const cpuSpent: (number | null)[] = [];
    const done = children.map((child, i) =>
      (expectMessage(child, 'done') as Promise<ProcessDone>).then((tally) => {
        cpuSpent[i] = difference(cpuBefore[i], cpuMsOf(child.pid));
        return tally;
      }),
    );
    for (const child of children) child.send({ type: 'go' });
    const tallies = await Promise.all(done);
    const redisSpent = difference(redisBefore, cpuMsOf(redisPid));
    // Each process quits its connections and exits on its own; the kill below is for one that hangs.
    const exited = children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : null));
    await Promise.race([Promise.all(exited), sleep(EXIT_GRACE_MS, undefined, { ref: false })]);
    return {
      sections: sum(tallies.map((t) => t.sections)),
      timeouts: sum(tallies.map((t) => t.timeouts)),
      errors: sum(tallies.map((t) => t.errors)),
      errorSamples: tallies.flatMap((t) => t.errorSamples),
      heldMs: sum(tallies.map((t) => t.heldMs)),
      elapsedMs: Math.max(...tallies.map((t) => t.elapsedMs)),
      waits: mergeWaits(tallies.map((t) => t.waits)),
      cpuMs: { processes: cpuSpent.includes(null) ? null : sum(cpuSpent as number[]), redis: redisSpent },
    };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const difference = (before: number | null, after: number | null) => (before === null || after === null ? null : after - before);

/** The child's next message, which must be `type`; rejects on its failure report or its exit. */
async function expectMessage(child: ChildProcess, type: string): Promise<unknown> {
  const exited = once(child, 'exit').then(([code, signal]) => {
    throw new Error(`lock-bench process exited (${code ?? signal}) before "${type}"`);
  });
  const [message] = (await Promise.race([once(child, 'message'), exited])) as [{ type: string; message?: string }];
  if (message.type !== type) throw new Error(`lock-bench process: expected "${type}", got "${message.type}"${message.message ? `: ${message.message}` : ''}`);
  return message;
}
