import type { RunTarget, SequenceStep } from '@oversell/contracts';

/**
 * The model checker's counterexamples checked in beside each lock (tools/model-check), or beside the
 * strategy for those with no lock folder, by the strategy that runs the lock: pure data, each file loaded
 * only when drawn. The globs reach into the libraries for JSON alone (none of their code comes along), as
 * the checker writes the files there.
 */
const TRACE_FILES = {
  ...import.meta.glob<SequenceStep[]>('../../../../libs/locks/src/*/*.trace.json', { import: 'default' }),
  ...import.meta.glob<SequenceStep[]>('../../../../libs/stock/src/strategies/*/*.trace.json', { import: 'default' }),
};

/** Each strategy's model traces, named `<lock>.<fault>-<point>`; the first is drawn when none matches the run's fault. */
export const MODEL_TRACES: Partial<Record<RunTarget, readonly string[]>> = {
  'no-lock': ['no-lock.none'],
  'naive-setnx': ['naive-setnx.pause-stock-written'],
  'setnx-expire': ['setnx-expire.crash-lock-set-before-expire'],
  'setnx-getset': ['setnx-getset.clock-offset'],
  'setnx-no-ttl': ['setnx-no-ttl.crash-lock-acquired'],
  'uuid-check-del': ['uuid-check-del.pause-release-checked-before-del'],
  'uuid-lua': ['uuid-lua.pause-stock-read', 'uuid-lua.failover-lock-acquired'],
  watchdog: ['watchdog.stop-the-world-stock-read', 'watchdog.failover-lock-acquired'],
  'watchdog-fenced': ['watchdog-fenced.failover-lock-acquired'],
  redlock: ['redlock.node-restart-lock-acquired', 'redlock.clock-jump-lock-acquired'],
};

/** The model trace to draw beside a run of `strategy` under these faults: the one of the same fault, else its first; none for a strategy with no model trace. */
export function modelTraceName(strategy: RunTarget, faultKinds: readonly string[]): string | undefined {
  const names = MODEL_TRACES[strategy];
  return names?.find((name) => faultKinds.some((kind) => name.split('.')[1]?.startsWith(kind))) ?? names?.[0];
}

/** Loads a model trace by name; undefined when no such file is checked in. */
export function loadModelTrace(name: string): Promise<SequenceStep[]> | undefined {
  const folder = name.split('.')[0];
  const load = TRACE_FILES[`../../../../libs/locks/src/${folder}/${name}.trace.json`] ?? TRACE_FILES[`../../../../libs/stock/src/strategies/${folder}/${name}.trace.json`];
  return load?.();
}
