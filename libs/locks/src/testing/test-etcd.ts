import { Etcd3 } from 'etcd3';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

// The same depth from src/testing and from dist/testing.
const ENSURE_ETCD = resolve(__dirname, '../../../../infra/scripts/ensure-etcd.sh');

/**
 * A standalone etcd of the project's (infra/scripts/ensure-etcd.sh: installs Debian's etcd-server the
 * first time), stopped once this process exits, however it ends; ETCD_ENDPOINTS, when set, is used
 * instead. Sets ETCD_ENDPOINTS so processes started after it find the same server. Returns the endpoint.
 */
export function startEtcd(): string {
  const endpoint = execFileSync('bash', [ENSURE_ETCD, 'start', '--owner', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  process.env.ETCD_ENDPOINTS = endpoint;
  return endpoint;
}

/** The etcd the tests talk to: the one the locks' jest global setup started (startEtcd). */
export function testEtcdClient(): Etcd3 {
  const hosts = process.env.ETCD_ENDPOINTS;
  if (!hosts) throw new Error('ETCD_ENDPOINTS is not set: the locks jest config starts etcd in its globalSetup (startEtcd)');
  return new Etcd3({ hosts: hosts.split(',') });
}
