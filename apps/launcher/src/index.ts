export { startLab, type Lab, type LabOptions } from './lab/lab';
export { runBench, parseBenchArgs } from './commands/bench';
export type { BenchOptions } from './commands/bench-options';
