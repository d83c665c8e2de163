import type { LockService } from '../lock-services';
import type { StrategyEntry } from './strategy-entry';
import { dbConditional } from './strategies/db-conditional';
import { dbLockTable } from './strategies/db-lock-table';
import { dbLockTableTtl } from './strategies/db-lock-table-ttl';
import { dbOptimistic } from './strategies/db-optimistic';
import { dbPessimistic } from './strategies/db-pessimistic';
import { decrCheck } from './strategies/decr-check';
import { etcd } from './strategies/etcd';
import { luaDecrement } from './strategies/lua-decrement';
import { mysqlGetLock } from './strategies/mysql-get-lock';
import { naiveSetnx } from './strategies/naive-setnx';
import { noLock } from './strategies/no-lock';
import { redlock } from './strategies/redlock';
import { redlockDelayedRestart } from './strategies/redlock-delayed-restart';
import { redlockLib } from './strategies/redlock-lib';
import { segmented } from './strategies/segmented';
import { segmentedCluster } from './strategies/segmented-cluster';
import { setnxExpire } from './strategies/setnx-expire';
import { setnxGetset } from './strategies/setnx-getset';
import { setnxNoTtl } from './strategies/setnx-no-ttl';
import { uuidCheckDel } from './strategies/uuid-check-del';
import { uuidLua } from './strategies/uuid-lua';
import { watchdog } from './strategies/watchdog';
import { watchdogFenced } from './strategies/watchdog-fenced';
import { watchdogFencedMysql } from './strategies/watchdog-fenced-mysql';
import { zookeeper } from './strategies/zookeeper';

/**
 * Every strategy the service can deduct stock with, one entry per file in ./strategies. The order is the
 * order of every table: the articles' path from no lock through the hand-made Redis locks to the atomic
 * and database ways. The names, the registry's completeness, the k6 list, the launcher's lock services
 * and docs/strategies.md all come from here.
 */
export const STRATEGY_CATALOGUE = [
  noLock,
  setnxNoTtl,
  setnxExpire,
  naiveSetnx,
  setnxGetset,
  uuidCheckDel,
  uuidLua,
  watchdog,
  watchdogFenced,
  watchdogFencedMysql,
  etcd,
  zookeeper,
  redlock,
  redlockLib,
  redlockDelayedRestart,
  segmented,
  segmentedCluster,
  decrCheck,
  luaDecrement,
  dbLockTable,
  dbLockTableTtl,
  mysqlGetLock,
  dbOptimistic,
  dbPessimistic,
  dbConditional,
] as const;

export type StrategyName = (typeof STRATEGY_CATALOGUE)[number]['name'];

/** The strategies' names in the order of the tables. */
export const STRATEGY_NAMES: readonly StrategyName[] = STRATEGY_CATALOGUE.map((entry) => entry.name);

export function isStrategyName(value: unknown): value is StrategyName {
  return typeof value === 'string' && (STRATEGY_NAMES as readonly string[]).includes(value);
}

const BY_NAME: ReadonlyMap<StrategyName, StrategyEntry<StrategyName>> = new Map(STRATEGY_CATALOGUE.map((entry) => [entry.name, entry]));

export function strategyEntry(name: StrategyName): StrategyEntry<StrategyName> {
  return BY_NAME.get(name)!;
}

/** The lock services (etcd, …) these strategies need, each once: what a launcher starts before the instances. */
export function lockServicesNeededBy(names: readonly StrategyName[]): LockService[] {
  return [...new Set(STRATEGY_CATALOGUE.filter((entry) => names.includes(entry.name)).flatMap((entry) => entry.needs))];
}
