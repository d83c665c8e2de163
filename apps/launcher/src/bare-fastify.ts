import { ceilingWarmUp, STRATEGY_NAMES, type BareFastifyRow, type LoadProfile } from '@oversell/contracts';
import { driveLoad, type LoadOptions } from '@oversell/loadtests';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { INSTANCE_NODE_FLAGS } from './instance';
import { join } from 'node:path';
import type { BareFastifyFigures } from './bare-fastify-server';
import { REPO_ROOT } from './paths';

const START_TIMEOUT_MS = 30_000;
/** Run from this package's build, also when the bench runs from source (ts-jest), as the instances are. */
const BARE_FASTIFY_MAIN = join(REPO_ROOT, 'apps', 'launcher', 'dist', 'bare-fastify-server.js');

/**
 * Measures a bare Fastify no-op (bare-fastify-server.ts) with the load a bench run gets: the same load
 * tool, connections and duration, the same node flags as an instance, and the same discarded warm-up
 * the ceiling gets first. Throughput is counted as a run counts its own, by the server: answers ÷ the
 * time from the first request's arrival to the last answer.
 */
export async function measureBareFastify(load: LoadProfile): Promise<Omit<BareFastifyRow, 'ceilingShare'>> {
  const server = fork(BARE_FASTIFY_MAIN, [], { execArgv: INSTANCE_NODE_FLAGS, env: {}, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const url = `http://127.0.0.1:${await listeningPort(server)}`;
    // The no-op validates no strategy here, but the load tool's options name one.
    const options = (profile: LoadProfile): LoadOptions => ({ urls: [url], target: 'noop', productId: 1, strategy: STRATEGY_NAMES[0], profile });
    await driveLoad(options(ceilingWarmUp(load).load));
    await figuresOf(server); // the warm-up's, discarded
    const startedAt = Date.now();
    await driveLoad(options(load));
    const durationSec = (Date.now() - startedAt) / 1000;
    const { answers, firstRequestAt, lastAnswerAt } = await figuresOf(server);
    const answeringSec = Math.max(0.001, (lastAnswerAt - firstRequestAt) / 1000);
    return { throughput: answers ? Math.round((answers / answeringSec) * 10) / 10 : 0, requests: answers, durationSec: Math.round(durationSec * 100) / 100 };
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
  }
}

/** The answers the bare process counted since the last call (it starts a new count). */
async function figuresOf(server: ChildProcess): Promise<BareFastifyFigures> {
  const answer = once(server, 'message') as Promise<[{ figures: BareFastifyFigures }]>;
  server.send('figures');
  return (await answer)[0].figures;
}

function listeningPort(server: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bare fastify did not listen within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    server.once('message', (message: { port: number }) => {
      clearTimeout(timer);
      resolve(message.port);
    });
    server.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`bare fastify exited (${signal ?? code}) before it listened`));
    });
  });
}
