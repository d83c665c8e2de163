export { startLab, type Lab, type LabOptions } from './lab/lab';
export { runBench, parseBenchArgs, type BenchOptions } from './commands/bench';
