import { Etcd3 } from 'etcd3';
import { startLockServer } from '../lock-server';

/**
 * A standalone etcd of the project's (infra/scripts/ensure-etcd.sh: installs Debian's etcd-server the
 * first time), stopped once this process exits, however it ends; ETCD_ENDPOINTS, when set, is used
 * instead. Sets ETCD_ENDPOINTS so processes started after it find the same server. Returns the endpoint.
 */
export function startEtcd(): string {
  return startLockServer('etcd', 'ETCD_ENDPOINTS');
}

/** The etcd the tests talk to: the one the locks' jest global setup started (startEtcd). */
export function testEtcdClient(): Etcd3 {
  const hosts = process.env.ETCD_ENDPOINTS;
  if (!hosts) throw new Error('ETCD_ENDPOINTS is not set: the locks jest config starts etcd in its globalSetup (startEtcd)');
  return new Etcd3({ hosts: hosts.split(',') });
}
