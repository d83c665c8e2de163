import { EtcdLeaseLostError, EtcdLock, type DistributedLock } from '@oversell/locks';
import { Etcd3 } from 'etcd3';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

/**
 * A waiter whose lease ran out (no keepalive confirmed within the TTL: an overloaded process or etcd)
 * lost its key, so its place in the line: it did not get the lock, which is lock_timeout; etcd did answer.
 */
function leaseLostWhileWaitingIsNotHad(lock: EtcdLock): DistributedLock {
  return {
    name: lock.name,
    acquire: (key, options) =>
      lock.acquire(key, options).catch((error: unknown) => {
        if (error instanceof EtcdLeaseLostError) return null;
        throw error;
      }),
  };
}

/** etcd's mutex around the Redis stock read-check-write, on the etcd at ETCD_ENDPOINTS. */
export const etcd = lockedRedisStock('etcd', luaScriptsOf(...FENCED_STOCK_SCRIPTS), (deps) =>
  lockOnService('etcd', deps, (endpoints) => {
    const client = new Etcd3({ hosts: endpoints.split(',') });
    return { lock: leaseLostWhileWaitingIsNotHad(new EtcdLock(client)), close: () => client.close() };
  }),
);
