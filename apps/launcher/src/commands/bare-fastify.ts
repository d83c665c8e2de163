import type { LoadProfile, NoopMeasure } from '@oversell/contracts';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { AnswerFigures } from '../lab/answer-count';
import { INSTANCE_NODE_FLAGS } from '../lab/instance';
import { measureNoop } from './measure-noop';
import { LAUNCHER_DIST } from '../lab/paths';

const START_TIMEOUT_MS = 30_000;
/** Run from this package's build, also when the bench runs from source (ts-jest), as the instances are. */
const BARE_FASTIFY_MAIN = join(LAUNCHER_DIST, 'commands', 'bare-fastify-server.js');

/**
 * Measures a bare Fastify no-op (bare-fastify-server.ts) with the load a bench run gets (measureNoop),
 * started with the same node flags as an instance, and counted by the bare process itself.
 */
export async function measureBareFastify(load: LoadProfile): Promise<NoopMeasure> {
  const server = fork(BARE_FASTIFY_MAIN, [], { execArgv: INSTANCE_NODE_FLAGS, env: {}, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    return await measureNoop(`http://127.0.0.1:${await listeningPort(server)}`, () => figuresOf(server), load);
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
  }
}

/** The answers the bare process counted since the last call (it starts a new count). */
async function figuresOf(server: ChildProcess): Promise<AnswerFigures> {
  const answer = once(server, 'message') as Promise<[{ figures: AnswerFigures }]>;
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
