import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** Starts a TypeScript file of the lock library as an OS process of its own (ts-node, the library's paths), with IPC. */
export function forkTypeScript(file: string, args: string[]): ChildProcess {
  return fork(file, args, {
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../../tsconfig.json') },
  });
}
