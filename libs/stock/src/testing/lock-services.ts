import { LOCK_SERVICES, type LockService } from '@oversell/contracts';
import { startLockServer } from '@oversell/locks/testing';

/**
 * Starts each lock service (infra/scripts/ensure-<service>.sh; stopped once this process has exited) and
 * sets its variable, so the test processes started after it find it. A variable already set names a
 * server to use instead.
 */
export function startLockServices(services: readonly LockService[] = Object.keys(LOCK_SERVICES) as LockService[]): void {
  for (const service of services) startLockServer(service, LOCK_SERVICES[service].env);
}
