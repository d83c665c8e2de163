import { Etcd3 } from 'etcd3';
import type { ConnectedLock } from '../connected-lock';
import { EtcdLeaseLostError, EtcdLock } from './etcd-lock';

/**
 * The etcd lock on the cluster at `endpoints` (client URLs, comma-separated); etcd3 connects at the first
 * call. A waiter whose lease ran out (no keepalive confirmed within the TTL: an overloaded process or
 * etcd) lost its key, so its place in the line: it did not get the lock (null); etcd did answer.
 */
export function connectEtcd(endpoints: string): ConnectedLock {
  const client = new Etcd3({ hosts: endpoints.split(',') });
  const lock = new EtcdLock(client);
  return {
    lock: {
      name: lock.name,
      acquire: (key, options) =>
        lock.acquire(key, options).catch((error: unknown) => {
          if (error instanceof EtcdLeaseLostError) return null;
          throw error;
        }),
    },
    close: () => client.close(),
  };
}
