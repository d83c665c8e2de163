/** The load tools' public API: drive a scenario in-process, in a child process, or with k6. */
export { runLoad, type RunLoadOptions } from './run-load';
export { forkLoad } from './fork-load';
export { CPU_PINNING_VARIABLES, pinnedCommand, pinnedFork, type CpuSide } from './cpu-pinning';
export { driveLoad } from './drive-load';
export { doubleClickOf } from './double-click';
export { loadScenario, listScenarios, validateScenario, SCENARIOS_DIR, UnknownScenarioError } from './scenarios';
export { validateLoadProfile } from './load-profile';
export { findK6, runK6, runK6Load, parseK6Summary, K6_SCRIPTS_DIR, type K6SummaryData, type RunK6Options } from './k6';
export { InvalidFieldError } from './validation';
export type { ChildMessage, StartMessage } from './ipc';
export { LOAD_TARGETS, type DoubleClick, type LoadOptions, type LoadSummary, type LoadTarget, type LoadTick } from './summary';
