export { startLab, type Lab, type LabOptions } from './lab';
export { runBench, parseBenchArgs, type BenchOptions } from './bench';
