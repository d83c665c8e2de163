import type { StrategyName } from '@oversell/contracts';
import type { StrategyDefinition } from './compose/strategy-definition';
import { dbConditional } from './strategies/db-conditional/db-conditional.strategy';
import { dbLockTable } from './strategies/db-lock-table/db-lock-table.strategy';
import { dbLockTableTtl } from './strategies/db-lock-table-ttl/db-lock-table-ttl.strategy';
import { etcd } from './strategies/etcd/etcd.strategy';
import { dbOptimistic } from './strategies/db-optimistic/db-optimistic.strategy';
import { dbPessimistic } from './strategies/db-pessimistic/db-pessimistic.strategy';
import { decrCheck } from './strategies/decr-check/decr-check.strategy';
import { luaDecrement } from './strategies/lua-decrement/lua-decrement.strategy';
import { mysqlGetLock } from './strategies/mysql-get-lock/mysql-get-lock.strategy';
import { naiveSetnx } from './strategies/naive-setnx/naive-setnx.strategy';
import { noLock } from './strategies/no-lock/no-lock.strategy';
import { redlock } from './strategies/redlock/redlock.strategy';
import { redlockLib } from './strategies/redlock-lib/redlock-lib.strategy';
import { redlockDelayedRestart } from './strategies/redlock-delayed-restart/redlock-delayed-restart.strategy';
import { segmented } from './strategies/segmented/segmented.strategy';
import { segmentedCluster } from './strategies/segmented-cluster/segmented-cluster.strategy';
import { setnxExpire } from './strategies/setnx-expire/setnx-expire.strategy';
import { setnxGetset } from './strategies/setnx-getset/setnx-getset.strategy';
import { setnxNoTtl } from './strategies/setnx-no-ttl/setnx-no-ttl.strategy';
import { uuidCheckDel } from './strategies/uuid-check-del/uuid-check-del.strategy';
import { uuidLua } from './strategies/uuid-lua/uuid-lua.strategy';
import { watchdog } from './strategies/watchdog/watchdog.strategy';
import { watchdogFenced } from './strategies/watchdog-fenced/watchdog-fenced.strategy';
import { watchdogFencedMysql } from './strategies/watchdog-fenced-mysql/watchdog-fenced-mysql.strategy';
import { zookeeper } from './strategies/zookeeper/zookeeper.strategy';

/**
 * The one table of strategies: a lock around a store's read-check-write, or an atomic store operation,
 * for each name of the catalogue (a name left out, or a row under another's name, does not compile).
 */
export const STRATEGIES: { readonly [Name in StrategyName]: StrategyDefinition<Name> } = {
  'no-lock': noLock,
  'setnx-no-ttl': setnxNoTtl,
  'setnx-expire': setnxExpire,
  'naive-setnx': naiveSetnx,
  'setnx-getset': setnxGetset,
  'uuid-check-del': uuidCheckDel,
  'uuid-lua': uuidLua,
  watchdog,
  'watchdog-fenced': watchdogFenced,
  'watchdog-fenced-mysql': watchdogFencedMysql,
  etcd,
  zookeeper,
  redlock,
  'redlock-lib': redlockLib,
  'redlock-delayed-restart': redlockDelayedRestart,
  segmented,
  'segmented-cluster': segmentedCluster,
  'decr-check': decrCheck,
  'lua-decrement': luaDecrement,
  'db-lock-table': dbLockTable,
  'db-lock-table-ttl': dbLockTableTtl,
  'mysql-get-lock': mysqlGetLock,
  'db-optimistic': dbOptimistic,
  'db-pessimistic': dbPessimistic,
  'db-conditional': dbConditional,
};
