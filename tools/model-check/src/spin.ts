import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ModelPair, Verdict } from './pairs';
import type { SequenceStep } from '@oversell/contracts';
import { stepsOfReplay } from './trace';

const run = promisify(execFile);

/** What spin found for one pair. */
export interface CheckResult {
  /** 'incomplete' when the search hit its depth bound: no verdict within the bounds. */
  verdict: Verdict | 'incomplete';
  statesStored: number;
  depth: number;
  /** spin -a, gcc, the search and the replay, wall-clock. */
  elapsedMs: number;
  /** The counterexample's steps (the shortest: the search is breadth-first); null when there is none. */
  steps: SequenceStep[] | null;
}

/** The search's depth bound: far above every model's deepest state (about 110), so reaching it is a finding. */
const MAX_DEPTH = 10_000;

/** The model's -D flags: the bounds and the fault, named as lab.pml's mtypes ('-' → '_'). */
export function definesOf(pair: ModelPair): string[] {
  const mtype = (name: string) => name.replaceAll('-', '_');
  return [
    `-DORDERS=${pair.orders}`,
    `-DSTOCK=${pair.stock}`,
    ...(pair.fault.kind === 'none' ? [] : [`-DFAULT=${mtype(pair.fault.kind)}`]),
    ...(pair.fault.at ? [`-DFAULT_AT=${mtype(pair.fault.at)}`] : []),
  ];
}

/** The verdict, the states stored and the depth reached, from the output of pan. */
export function verdictOf(panOutput: string): Pick<CheckResult, 'verdict' | 'statesStored' | 'depth'> {
  const number = (pattern: RegExp) => Number(pattern.exec(panOutput)?.[1] ?? NaN);
  const errors = number(/errors: (\d+)/);
  if (Number.isNaN(errors)) throw new Error(`pan gave no result:\n${panOutput}`);
  const verdict: CheckResult['verdict'] = /^pan:\d+: assertion violated/m.test(panOutput)
    ? 'sold-twice'
    : /^pan:\d+: invalid end state/m.test(panOutput)
      ? 'deadlock'
      : /max search depth too small/.test(panOutput)
        ? 'incomplete'
        : errors === 0
          ? 'none'
          : (() => {
              throw new Error(`pan found an error the lab does not check:\n${panOutput}`);
            })();
  return { verdict, statesStored: number(/(\d+) states, stored/), depth: number(/depth reached (\d+)/) };
}

/**
 * Generates the pair's verifier (spin -a), compiles it breadth-first (-DBFS: the first counterexample found
 * is a shortest one, so its diagram has no detours), runs it, and replays its trail into steps. In a
 * temporary directory, removed after.
 */
export async function checkPair(pair: ModelPair, root: string): Promise<CheckResult> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'model-check-'));
  const model = resolve(root, pair.file);
  const defines = definesOf(pair);
  try {
    await spin(['-a', ...defines, model], dir);
    await run('gcc', ['-O0', '-DBFS', '-o', 'pan', 'pan.c'], { cwd: dir });
    const { stdout } = await run('./pan', [`-m${MAX_DEPTH}`, '-w20'], { cwd: dir });
    const found = verdictOf(stdout);
    const trail = (await readdir(dir)).find((file) => file === `${basename(model)}.trail`);
    const steps = trail ? stepsOfReplay(await spin(['-T', '-t', '-k', trail, ...defines, model], dir)) : null;
    return { ...found, steps, elapsedMs: performance.now() - started };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function spin(args: string[], cwd: string): Promise<string> {
  try {
    return (await run('spin', args, { cwd, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('spin is not installed: apt-get install spin (Debian; .ci/run installs it for CI)');
    throw error;
  }
}
