import {
  dbLockTableLock,
  EtcdLock,
  naiveSetnxLock,
  redlock,
  redlockLib,
  setnxExpireLock,
  setnxGetsetLock,
  setnxNoTtlLock,
  uuidCheckDelLock,
  uuidLuaLock,
  WatchdogLock,
  ZookeeperLock,
  type DistributedLock,
} from '@oversell/locks';
import { sqlClient, type LockClients } from './lock-clients';
import { noLock } from './no-lock';
import { redisSemaphoreMutex } from './peers/redis-semaphore';

/**
 * The one table of the locks the bench compares, in table order: the no-lock control, every lock of
 * @oversell/locks, then the npm locks people use, each adapted to the same DistributedLock so the
 * measuring code treats all alike. A new lock is one line here.
 */
export const LOCKS_UNDER_TEST = {
  'no-lock': () => noLock,
  'naive-setnx': ({ redis }) => naiveSetnxLock(redis),
  'uuid-lua': ({ redis }) => uuidLuaLock(redis),
  watchdog: ({ redis, subscriber }) => new WatchdogLock(redis, subscriber),
  'watchdog-unfair': ({ redis, subscriber }) => new WatchdogLock(redis, subscriber, { fair: false }),
  'setnx-getset': ({ redis }) => setnxGetsetLock(redis),
  'uuid-check-del': ({ redis }) => uuidCheckDelLock(redis),
  'setnx-no-ttl': ({ redis }) => setnxNoTtlLock(redis),
  'setnx-expire': ({ redis }) => setnxExpireLock(redis),
  'db-lock-table': ({ mysql }) => dbLockTableLock(sqlClient(mysql), 'owner'),
  'db-lock-table-ttl': ({ mysql }) => dbLockTableLock(sqlClient(mysql), 'expiring'),
  etcd: ({ etcd }) => new EtcdLock(etcd),
  zookeeper: ({ zookeeper }) => new ZookeeperLock(zookeeper.client()),
  redlock: ({ redlockNodes }) => redlock(redlockNodes),
  'redis-semaphore': ({ redis }) => redisSemaphoreMutex(redis),
  'redlock-lib': ({ redlockNodes }) => redlockLib(redlockNodes),
} satisfies Record<string, (clients: LockClients) => DistributedLock>;

export type LockName = keyof typeof LOCKS_UNDER_TEST;
export const LOCK_NAMES = Object.keys(LOCKS_UNDER_TEST) as LockName[];

export function isLockName(name: string): name is LockName {
  return Object.hasOwn(LOCKS_UNDER_TEST, name);
}
