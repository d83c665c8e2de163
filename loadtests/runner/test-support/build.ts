import { join } from 'node:path';

/**
 * The built CLI. Tests of the built package (the CLI, forkLoad) run what `loadtests:build` made: Nx builds
 * it before `loadtests:test` (its dependsOn), cached, so `npx nx test loadtests` never runs a stale dist.
 */
export const CLI_PATH = join(__dirname, '..', '..', 'dist', 'cli.js');
