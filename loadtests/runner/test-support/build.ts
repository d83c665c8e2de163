import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const LOADTESTS_DIR = join(__dirname, '..', '..');
export const CLI_PATH = join(LOADTESTS_DIR, 'dist', 'cli.js');

/** Tests of the built package (forkLoad, the CLI) build it first, so they never run a stale dist. */
export function buildDist(): void {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.lib.json'], {
    cwd: LOADTESTS_DIR,
    stdio: 'pipe',
  });
}
