import type { LockService } from '@oversell/contracts';
import {
  connectEtcd,
  connectRedlock,
  connectRedlockLib,
  connectZookeeper,
  dbLockTableLock,
  naiveSetnxLock,
  setnxExpireLock,
  setnxGetsetLock,
  setnxNoTtlLock,
  uuidCheckDelLock,
  uuidLuaLock,
  WatchdogLock,
  type ConnectedLock,
  type DistributedLock,
} from '@oversell/locks';
import { sqlClient, type LockClients } from './lock-clients';
import { noLock } from './no-lock';
import { redisSemaphoreMutex } from './peers/redis-semaphore';

interface LockUnderTest {
  /** The lock service it runs on, which the bench starts before it (none: the shared Redis or MariaDB). */
  needs?: LockService;
  create(clients: LockClients): DistributedLock;
}

const on = (create: LockUnderTest['create']): LockUnderTest => ({ create });
/** A lock on a server of its own, connected by its folder's own `connect…()`, as the strategies connect. */
const onService = (service: LockService, connect: (endpoint: string) => ConnectedLock): LockUnderTest => ({ needs: service, create: (clients) => clients.onService(service, connect) });

/**
 * The one table of the locks the bench compares, in table order: the no-lock control, every lock of
 * @oversell/locks, then the npm locks people use, each adapted to the same DistributedLock so the
 * measuring code treats all alike. A new lock is one line here.
 */
export const LOCKS_UNDER_TEST = {
  'no-lock': on(() => noLock),
  'naive-setnx': on(({ redis }) => naiveSetnxLock(redis)),
  'uuid-lua': on(({ redis }) => uuidLuaLock(redis)),
  watchdog: on(({ redis, subscriber }) => new WatchdogLock(redis, subscriber)),
  'setnx-getset': on(({ redis }) => setnxGetsetLock(redis)),
  'uuid-check-del': on(({ redis }) => uuidCheckDelLock(redis)),
  'setnx-no-ttl': on(({ redis }) => setnxNoTtlLock(redis)),
  'setnx-expire': on(({ redis }) => setnxExpireLock(redis)),
  'db-lock-table': on(({ mysql }) => dbLockTableLock(sqlClient(mysql), 'owner')),
  'db-lock-table-ttl': on(({ mysql }) => dbLockTableLock(sqlClient(mysql), 'expiring')),
  etcd: onService('etcd', connectEtcd),
  zookeeper: onService('zookeeper', connectZookeeper),
  redlock: onService('redis-nodes', connectRedlock),
  'redis-semaphore': on(({ redis }) => redisSemaphoreMutex(redis)),
  'redlock-lib': onService('redis-nodes', connectRedlockLib),
} satisfies Record<string, LockUnderTest>;

export type LockName = keyof typeof LOCKS_UNDER_TEST;
export const LOCK_NAMES = Object.keys(LOCKS_UNDER_TEST) as LockName[];

export function isLockName(name: string): name is LockName {
  return Object.hasOwn(LOCKS_UNDER_TEST, name);
}

/** The lock services the chosen locks run on, each once. */
export function lockServicesNeeded(locks: readonly LockName[]): LockService[] {
  const needs = locks.map((lock): LockUnderTest => LOCKS_UNDER_TEST[lock]).flatMap(({ needs }) => (needs ? [needs] : []));
  return [...new Set(needs)];
}
