import type { FaultKind, FaultPointName } from '@oversell/contracts';

/** What a check finds: a unit sold twice (an assertion), orders blocked for ever (an invalid end state), or neither. */
export type Verdict = 'sold-twice' | 'deadlock' | 'none';

/** The fault a check injects: one of the lab's kinds at one of its fault points, once, or none. */
export interface ModelFault {
  kind: FaultKind | 'none';
  at?: FaultPointName;
}

/** One check: a lock's model under one fault, within its bounds, and the verdict the lab expects of it. */
export interface ModelPair {
  /** The lock or strategy modelled, as its folder is named. */
  model: string;
  /** The model's file, from the repository's root. */
  file: string;
  fault: ModelFault;
  /** Orders (processes) and units of stock: the bounds of the state space. */
  orders: number;
  stock: number;
  expected: Verdict;
}

const lock = (name: string) => `libs/locks/src/${name}/${name}.pml`;
const strategy = (name: string) => `libs/stock/src/strategies/${name}/${name}.pml`;
const none: ModelFault = { kind: 'none' };
const pauseAt = (at: FaultPointName): ModelFault => ({ kind: 'pause', at });
const failoverAt: ModelFault = { kind: 'failover', at: 'lock-acquired' };
const clockJumpAt: ModelFault = { kind: 'clock-jump', at: 'lock-acquired' };

/**
 * Every (model, fault) pair the lab's pitfalls stand on, a broken side under one fault and often a fix
 * under the same or another. Bounds are the fewest orders and units that show the interleaving: a third
 * order for the mis-deletions (the one the late DEL lets in) and the units it needs to find stock left.
 * The presets' sides map onto them (libs/contracts/src/pitfall-presets.ts): e.g. mis-deletion is
 * naive-setnx and uuid-lua under a pause at stock-written; master-failover is uuid-lua, watchdog (and the
 * fenced watchdog on Redis, whose counter is lost too) against redlock under a failover at lock-acquired;
 * redlock-clock-jump is redlock against the fenced row (modelled by watchdog-fenced, which fences alike).
 */
export const MODEL_PAIRS: readonly ModelPair[] = [
  { model: 'no-lock', file: strategy('no-lock'), fault: none, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'setnx-no-ttl', file: lock('setnx-no-ttl'), fault: none, orders: 2, stock: 1, expected: 'none' },
  { model: 'setnx-no-ttl', file: lock('setnx-no-ttl'), fault: { kind: 'crash', at: 'lock-acquired' }, orders: 2, stock: 1, expected: 'deadlock' },
  { model: 'setnx-expire', file: lock('setnx-expire'), fault: { kind: 'crash', at: 'lock-set-before-expire' }, orders: 2, stock: 1, expected: 'deadlock' },
  { model: 'naive-setnx', file: lock('naive-setnx'), fault: { kind: 'crash', at: 'lock-acquired' }, orders: 2, stock: 1, expected: 'none' },
  { model: 'naive-setnx', file: lock('naive-setnx'), fault: pauseAt('stock-written'), orders: 3, stock: 2, expected: 'sold-twice' },
  { model: 'setnx-getset', file: lock('setnx-getset'), fault: none, orders: 2, stock: 1, expected: 'none' },
  { model: 'setnx-getset', file: lock('setnx-getset'), fault: { kind: 'clock-offset' }, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'uuid-check-del', file: lock('uuid-check-del'), fault: pauseAt('release-checked-before-del'), orders: 3, stock: 2, expected: 'sold-twice' },
  { model: 'uuid-lua', file: lock('uuid-lua'), fault: pauseAt('stock-written'), orders: 3, stock: 2, expected: 'none' },
  { model: 'uuid-lua', file: lock('uuid-lua'), fault: pauseAt('stock-read'), orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'uuid-lua', file: lock('uuid-lua'), fault: failoverAt, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'watchdog', file: lock('watchdog'), fault: none, orders: 2, stock: 1, expected: 'none' },
  { model: 'watchdog', file: lock('watchdog'), fault: pauseAt('stock-read'), orders: 2, stock: 1, expected: 'none' },
  { model: 'watchdog', file: lock('watchdog'), fault: { kind: 'crash', at: 'lock-acquired' }, orders: 2, stock: 1, expected: 'none' },
  { model: 'watchdog', file: lock('watchdog'), fault: { kind: 'stop-the-world', at: 'stock-read' }, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'watchdog', file: lock('watchdog'), fault: failoverAt, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'watchdog-fenced', file: strategy('watchdog-fenced'), fault: { kind: 'stop-the-world', at: 'stock-read' }, orders: 2, stock: 1, expected: 'none' },
  { model: 'watchdog-fenced', file: strategy('watchdog-fenced'), fault: failoverAt, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'redlock', file: lock('redlock'), fault: none, orders: 2, stock: 1, expected: 'none' },
  { model: 'redlock', file: lock('redlock'), fault: { kind: 'node-restart', at: 'lock-acquired' }, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'redlock', file: lock('redlock'), fault: failoverAt, orders: 2, stock: 1, expected: 'none' },
  { model: 'redlock-delayed-restart', file: strategy('redlock-delayed-restart'), fault: { kind: 'node-restart', at: 'lock-acquired' }, orders: 2, stock: 1, expected: 'none' },
  { model: 'redlock', file: lock('redlock'), fault: clockJumpAt, orders: 2, stock: 1, expected: 'sold-twice' },
  { model: 'watchdog-fenced', file: strategy('watchdog-fenced'), fault: clockJumpAt, orders: 2, stock: 1, expected: 'none' },
  { model: 'db-optimistic', file: strategy('db-optimistic'), fault: none, orders: 3, stock: 1, expected: 'none' },
  { model: 'db-optimistic', file: strategy('db-optimistic'), fault: pauseAt('stock-read'), orders: 3, stock: 2, expected: 'none' },
];

/** The fault as the table prints it: 'none', 'clock-offset', 'pause at stock-read'. */
export const faultLabel = ({ kind, at }: ModelFault) => (at ? `${kind} at ${at}` : kind);

/** The file a pair's counterexample is kept in, beside its model: `<model>.<kind>[-<at>].trace.json`. */
export const traceFileOf = (pair: ModelPair) =>
  pair.file.replace(/[^/]+\.pml$/, `${pair.model}.${pair.fault.at ? `${pair.fault.kind}-${pair.fault.at}` : pair.fault.kind}.trace.json`);
